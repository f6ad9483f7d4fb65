// `node --test scripts/`: the static web server the apps are served by (start, e2e, bench).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import { startWebServer } from './web-server.mjs';

const PORT = 47100 + (process.pid % 100);
const HASHED_JS = 'main.0123abcd.js';
const JS = 'console.log("careloop");'.repeat(50);
const dir = mkdtempSync(join(tmpdir(), 'careloop-web-'));
const runtimeConfigFile = join(dir, 'runtime-config.elsewhere.json');
let server;

before(async () => {
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>CareLoop</title>');
  writeFileSync(join(dir, HASHED_JS), JS);
  writeFileSync(join(dir, `${HASHED_JS}.br`), brotliCompressSync(JS));
  writeFileSync(join(dir, `${HASHED_JS}.gz`), gzipSync(JS));
  writeFileSync(join(dir, 'remoteEntry.js'), 'var remote_public;');
  writeFileSync(runtimeConfigFile, JSON.stringify({ apiUrl: 'http://api.one' }));
  server = await startWebServer({ dir, port: PORT, runtimeConfigFile });
});
after(() => server?.close());

/** A raw request: no automatic decompression, so the encoding served is visible. */
function get(path, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: PORT, path, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a hashed file is cached for a year, with CORS and nosniff', async () => {
  const res = await get(`/${HASHED_JS}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.toString(), JS);
  assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
});

test('Brotli when accepted, else gzip, else the plain file', async () => {
  const br = await get(`/${HASHED_JS}`, { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers['vary'], 'Accept-Encoding');
  assert.equal(brotliDecompressSync(br.body).toString(), JS);
  const gz = await get(`/${HASHED_JS}`, { 'accept-encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gz.body).toString(), JS);
  const plain = await get(`/${HASHED_JS}`, { 'accept-encoding': 'identity' });
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.body.toString(), JS);
});

test('ETag: a revalidation with the same tag is a 304 without a body', async () => {
  const first = await get(`/${HASHED_JS}`, { 'accept-encoding': 'br' });
  assert.ok(first.headers.etag);
  const again = await get(`/${HASHED_JS}`, { 'accept-encoding': 'br', 'if-none-match': first.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  const stale = await get(`/${HASHED_JS}`, { 'accept-encoding': 'br', 'if-none-match': 'W/"0-0"' });
  assert.equal(stale.status, 200);
});

test('entry points are revalidated every time', async () => {
  for (const path of ['/', '/index.html', '/remoteEntry.js']) {
    const res = await get(path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers['cache-control'], 'no-cache', path);
  }
});

test('a deep link gets the app; a missing asset gets a 404', async () => {
  const deep = await get('/patient/dashboard/medical-files');
  assert.equal(deep.status, 200);
  assert.match(deep.headers['content-type'], /^text\/html/);
  assert.match(deep.body.toString(), /<title>CareLoop<\/title>/);
  assert.equal(deep.headers['cache-control'], 'no-cache');
  const missing = await get('/main.ffffffff.js');
  assert.equal(missing.status, 404);
});

test('runtime-config.json comes from its own file, read on every request', async () => {
  const one = await get('/runtime-config.json');
  assert.deepEqual(JSON.parse(one.body.toString()), { apiUrl: 'http://api.one' });
  assert.equal(one.headers['cache-control'], 'no-cache');
  writeFileSync(runtimeConfigFile, JSON.stringify({ apiUrl: 'http://api.two' }));
  const two = await get('/runtime-config.json');
  assert.deepEqual(JSON.parse(two.body.toString()), { apiUrl: 'http://api.two' });
});

test('CORS preflight is answered; writes are refused', async () => {
  const preflight = await get('/remoteEntry.js', { origin: 'http://localhost:8080' }, 'OPTIONS');
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers['access-control-allow-origin'], '*');
  assert.equal((await get('/index.html', {}, 'POST')).status, 405);
});
