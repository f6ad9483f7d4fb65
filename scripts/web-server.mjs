// Serves one built web app (the shell or a remote) the way a CDN would: long-lived caching for
// hashed files, none for entry points, gzip, CORS for federation, and deep links to index.html.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.json', '.css', '.svg', '.txt']);
const HASHED = /\.[0-9a-f]{8}\.\w+$/;

/**
 * @param {{ dir: string, port: number, host?: string, runtimeConfigFile?: string }} options
 *   runtimeConfigFile: served as /runtime-config.json, read on every request, so moving a remote
 *   is an edit of that file and nothing else.
 */
export function startWebServer({ dir, port, host = '127.0.0.1', runtimeConfigFile }) {
  const root = normalize(dir + sep);
  const gzipCache = new Map();

  const server = createServer(async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();

    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return void res.writeHead(400).end();
    }
    let file =
      pathname === '/runtime-config.json' && runtimeConfigFile ? runtimeConfigFile : normalize(join(root, pathname));
    if (file !== runtimeConfigFile && !file.startsWith(root)) return void res.writeHead(403).end();

    let info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      // A deep link (/patient/dashboard) gets the app; a missing asset (/x.js) gets a 404.
      if (extname(pathname)) return void res.writeHead(404, { 'Content-Type': TYPES['.txt'] }).end('Not found');
      file = join(root, 'index.html');
      info = await stat(file).catch(() => null);
      if (!info) return void res.writeHead(404).end();
    }

    const ext = extname(file);
    let body = await readFile(file);
    const headers = {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Cache-Control': HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
      Vary: 'Accept-Encoding',
    };
    if (COMPRESSIBLE.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      const key = `${file}:${info.mtimeMs}`;
      if (!gzipCache.has(key)) gzipCache.set(key, gzipSync(body));
      body = gzipCache.get(key);
      headers['Content-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
