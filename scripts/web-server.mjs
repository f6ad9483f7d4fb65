// Serves one built web app (the shell or a remote) the way a CDN would, on sirv: ETag/304, the
// Brotli/gzip files the build writes beside each asset (webpack.common.ts), long-lived caching for
// hashed files and none for entry points, CORS for federation, and deep links to index.html.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import sirv from 'sirv';

const HASHED = /\.[0-9a-f]{8}\.\w+$/;
/** sirv adds a charset to HTML only. */
const UTF8_TEXT = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

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

  const server = createServer(async (req, res) => {
    // Remotes' entries and chunks are fetched by the shell's origin.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();

    if (runtimeConfigFile && new URL(req.url ?? '/', 'http://x').pathname === '/runtime-config.json') {
      const body = await readFile(runtimeConfigFile).catch(() => null);
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' });
      return void res.end(req.method === 'HEAD' ? undefined : body);
    }

    serveStatic(req, res, () => res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found'));
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
