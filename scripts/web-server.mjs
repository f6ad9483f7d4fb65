// Serves one built web app (the shell or a remote) the way a CDN would, on sirv: ETag/304, the
// Brotli/gzip files the build writes beside each asset (webpack.common.ts), long-lived caching for
// hashed files and none for entry points, CORS for federation, and deep links to index.html.
// Pages carry a Content-Security-Policy built from runtime-config.json (the api's and the remotes'
// origins) and may not be framed.
import { createServer } from 'node:http';
import { access, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import sirv from 'sirv';

const HASHED = /\.[0-9a-f]{8}\.\w+$/;
/** sirv adds a charset to HTML only. */
const UTF8_TEXT = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The origin of an absolute http(s) URL; undefined for anything else (a relative or broken value). */
function originOf(url) {
  try {
    const u = new URL(String(url));
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Content-Security-Policy of the app's pages, from its runtime config (RuntimeConfig in
 * shared-contracts; anything unreadable counts as none: the page's own origin only).
 * - scripts: this origin and the remotes' (module federation loads remoteEntry.js and the
 *   remotes' chunks from their origins with <script> tags); no inline script, no eval;
 * - styles: inline too (styled-components injects <style> elements);
 * - images and fonts: the remotes' assets, the favicon's data: URL, files the api serves;
 * - connect: the api (and the files it signs URLs for), the remotes, and `connectOrigins` (an S3
 *   bucket's, where presigned uploads go);
 * - nothing may frame the app, embed plugins, change the base URL or post a form elsewhere.
 * @param {unknown} runtimeConfig
 */
export function contentSecurityPolicy(runtimeConfig) {
  const config = runtimeConfig && typeof runtimeConfig === 'object' ? runtimeConfig : {};
  const remotes = Object.values(config.remotes && typeof config.remotes === 'object' ? config.remotes : {}).map(originOf);
  const api = originOf(config.apiUrl);
  const others = Array.isArray(config.connectOrigins) ? config.connectOrigins.map(originOf) : [];
  const sources = (...items) => [...new Set(items.filter(Boolean))].join(' ');
  return [
    "default-src 'self'",
    `script-src ${sources("'self'", ...remotes)}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${sources("'self'", 'data:', ...remotes, api)}`,
    `font-src ${sources("'self'", ...remotes)}`,
    `connect-src ${sources("'self'", api, ...remotes, ...others)}`,
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/** The path of a request URL, never throwing (`new URL('//%', base)` does: a host of '%'). */
const pathOf = (url = '/') => url.split('?', 1)[0];

/** Where the build writes the prerendered copy of a page (scripts/prerender.mjs) and this server finds it. */
export const prerenderedFile = (pathname) => `prerendered${pathname === '/' ? '/index' : pathname}.html`;
/** Paths that may have one: letters, digits, `-` and `/`, so no lookup ever leaves the folder. */
const PAGE_PATH = /^\/[a-z0-9/-]*$/i;

/**
 * A page's path inside a release folder (scripts/release-remote.mjs): `/releases/<id>/` and deep links
 * under it, no file extension. Such a path gets that release's own QA page, not the site's.
 */
const RELEASE_PAGE = /^\/releases\/([\w.+-]+)\/(?:[\w/-]*)$/;

/**
 * @param {{ dir: string, port: number, host?: string, runtimeConfigFile?: string }} options
 *   runtimeConfigFile: served as /runtime-config.json, read on every request, so moving a remote
 *   is an edit of that file and nothing else.
 */
export function startWebServer({ dir, port, host = '127.0.0.1', runtimeConfigFile }) {
  const serveStatic = sirv(dir, {
    // Look files up on each request (not a listing taken at start-up): a rebuild is served without a restart.
    dev: true,
    etag: true,
    brotli: true,
    gzip: true,
    // A deep link (/patient/dashboard) gets the app; a missing asset (/x.js) gets a 404 (sirv skips paths with an extension).
    single: true,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache');
      const type = UTF8_TEXT[extname(pathname)];
      if (type) res.setHeader('Content-Type', type);
    },
  });

  // The file the deployment edits, else the one the build put beside the app.
  const configFile = runtimeConfigFile ?? join(dir, 'runtime-config.json');
  /** Read on each request, like runtime-config.json itself: moving a remote moves its CSP entry. */
  const pagePolicy = async () => {
    const text = await readFile(configFile, 'utf8').catch(() => '');
    let config;
    try {
      config = JSON.parse(text);
    } catch {
      config = undefined;
    }
    return contentSecurityPolicy(config);
  };

  /** The prerendered copy of a page's path, if the build made one (`/login/patient` → prerendered/login/patient.html). */
  const prerendered = async (pathname) => {
    if (!PAGE_PATH.test(pathname)) return undefined;
    const file = prerenderedFile(pathname);
    return access(join(dir, file)).then(
      () => file,
      () => undefined,
    );
  };

  const handle = async (req, res) => {
    // Remotes' entries and chunks are fetched by the shell's origin.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    // Older browsers' anti-framing; CSP frame-ancestors 'none' is the same for newer ones.
    res.setHeader('X-Frame-Options', 'DENY');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();

    const pathname = pathOf(req.url);
    if (runtimeConfigFile && pathname === '/runtime-config.json') {
      const body = await readFile(runtimeConfigFile).catch(() => null);
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' });
      return void res.end(req.method === 'HEAD' ? undefined : body);
    }

    // On every answer, not only the paths that look like pages: sirv answers index.html for some
    // odd asset paths too (/a/%00.js), and a page must never come without its policy.
    res.setHeader('Content-Security-Policy', await pagePolicy());
    // A page the build rendered (scripts/prerender.mjs) gets its static first screen; any other the
    // plain page. A query can change what a login shows (a Google sign-in's ?error, ?token), so the
    // copy is for the bare path — and for `/` with any query (a mail's ?from=…), which it never reads.
    const copy = req.url === pathname || pathname === '/' ? await prerendered(pathname) : undefined;
    if (copy) req.url = `/${copy}${req.url.slice(pathname.length)}`;
    else if (RELEASE_PAGE.test(pathname) && !pathname.endsWith('/')) {
      // A deep link of a release's QA page (`/releases/<id>/login/patient`): that release's index.html.
      const page = `releases/${RELEASE_PAGE.exec(pathname)[1]}/index.html`;
      if (
        await access(join(dir, page)).then(
          () => true,
          () => false,
        )
      )
        req.url = `/${page}${req.url.slice(pathname.length)}`;
    }
    serveStatic(req, res, () => res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found'));
  };
  // One odd request must not stop the server (an unhandled rejection ends the process).
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Server error');
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
