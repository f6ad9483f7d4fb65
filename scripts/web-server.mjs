// Serves one built web app (the shell or a remote) the way a CDN would, on sirv: ETag/304, the
// Brotli/gzip files the build writes beside each asset (webpack.common.ts), long-lived caching for
// hashed files and release folders and none for entry points, CORS for federation, and deep links to
// index.html. The headers come from security-headers.mjs, which also writes them for static hosts.
// Pages carry a Content-Security-Policy built from runtime-config.json (the api's and the remotes'
// origins) and may not be framed.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { access, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import sirv from 'sirv';
import { cacheControl, contentSecurityPolicy, readRuntimeConfig, securityHeaders } from './security-headers.mjs';

// Headers and policy live in security-headers.mjs, shared with the static files written for other hosts.
export { contentSecurityPolicy };

/** sirv adds a charset to HTML only. */
const UTF8_TEXT = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

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
      res.setHeader('Cache-Control', cacheControl(pathname));
      const type = UTF8_TEXT[extname(pathname)];
      if (type) res.setHeader('Content-Type', type);
    },
  });

  // The file the deployment edits, else the one the build put beside the app.
  const configFile = runtimeConfigFile ?? join(dir, 'runtime-config.json');

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
    // On every answer, not only the paths that look like pages: sirv answers index.html for some
    // odd asset paths too (/a/%00.js), and a page must never come without its policy. The config is
    // read on each request, like runtime-config.json itself: moving a remote moves its CSP entry.
    for (const [name, value] of Object.entries(securityHeaders(await readRuntimeConfig(configFile)))) res.setHeader(name, value);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();

    const pathname = pathOf(req.url);
    if (runtimeConfigFile && pathname === '/runtime-config.json') {
      const body = await readFile(runtimeConfigFile).catch(() => null);
      if (!body) return void res.writeHead(404).end();
      // no-cache: kept, but revalidated by its ETag on each use (a static host's answer too).
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': cacheControl(pathname), ETag: etag };
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
      res.writeHead(200, headers);
      return void res.end(req.method === 'HEAD' ? undefined : body);
    }

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
