// `node --test scripts/`: the static web server the apps are served by (start, e2e, bench).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import { contentSecurityPolicy, startWebServer } from './web-server.mjs';

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
function get(path, headers = {}, method = 'GET', port = PORT) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
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

test("a release folder's page and its deep links get that release's QA page; a release that is gone, the site's page", async () => {
  const release = join(dir, 'releases', '1.0.0-0123abcd');
  mkdirSync(release, { recursive: true });
  writeFileSync(join(release, 'index.html'), '<!doctype html><title>Release 1.0.0-0123abcd</title>');
  for (const path of [
    '/releases/1.0.0-0123abcd/',
    '/releases/1.0.0-0123abcd/login/patient',
    '/releases/1.0.0-0123abcd/patient/dashboard?tab=1',
  ]) {
    const page = await get(path);
    assert.equal(page.status, 200, path);
    assert.match(page.body.toString(), /<title>Release 1\.0\.0-0123abcd<\/title>/, path);
    assert.ok(page.headers['content-security-policy'], path);
  }
  assert.match((await get('/releases/0.9.0-ffffffff/login/patient')).body.toString(), /<title>CareLoop<\/title>/);
  assert.equal((await get('/releases/1.0.0-0123abcd/main.ffffffff.js')).status, 404);
});

test('a prerendered page is served for its path once the build made one, with its policy; other URLs the plain page', async () => {
  const plain = await get('/');
  assert.match(plain.body.toString(), /<title>CareLoop<\/title>/);
  const copy = (h1) => `<!doctype html><title>CareLoop</title><div id="prerendered"><h1>${h1}</h1></div>`;
  mkdirSync(join(dir, 'prerendered', 'login'), { recursive: true });
  writeFileSync(join(dir, 'prerendered', 'index.html'), copy('Empower'));
  writeFileSync(join(dir, 'prerendered', 'login', 'patient.html'), copy('Patient Sign In'));
  try {
    // `/` never reads its query; a login does (?error, ?token): its copy is for the bare path only
    for (const [path, body] of [
      ['/', copy('Empower')],
      ['/?from=mail', copy('Empower')],
      ['/login/patient', copy('Patient Sign In')],
    ]) {
      const res = await get(path);
      assert.equal(res.status, 200);
      assert.equal(res.body.toString(), body);
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.match(res.headers['content-security-policy'], /script-src 'self'/);
    }
    for (const path of ['/login/patient?error=google', '/login/doctor', '/about']) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.doesNotMatch(res.body.toString(), /prerendered/, path);
    }
  } finally {
    rmSync(join(dir, 'prerendered'), { recursive: true });
  }
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

/** A raw request line, as a browser or an attacker may send it (http.request would refuse some). */
function rawGet(port, path) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve({ status: Number(text.split(' ', 2)[1]), text }));
    socket.on('error', reject);
  });
}

test('a malformed URL gets the app, not an empty 400, and does not stop the server', async () => {
  for (const path of ['/%', '//%', '/%E0%A4%A', '/patient/%zz', '/%00', '//evil.example/%']) {
    const res = await rawGet(PORT, path);
    assert.equal(res.status, 200, path);
    assert.match(res.text, /<title>CareLoop<\/title>/, path);
    assert.match(res.text, /content-security-policy: default-src 'self'/i, path);
  }
  assert.equal((await get('/')).status, 200); // still serving
});

test('every answer forbids framing and sends no referrer', async () => {
  for (const path of ['/', '/patient/dashboard', `/${HASHED_JS}`, '/remoteEntry.js', '/main.ffffffff.js']) {
    const res = await get(path);
    assert.equal(res.headers['x-frame-options'], 'DENY', path);
    assert.equal(res.headers['referrer-policy'], 'no-referrer', path);
    assert.match(res.headers['content-security-policy'], /frame-ancestors 'none'/, path);
  }
});

describe('Content-Security-Policy from the runtime config', () => {
  const CSP_PORT = PORT + 100;
  const cspDir = mkdtempSync(join(tmpdir(), 'careloop-web-csp-'));
  const configFile = join(cspDir, 'runtime-config.json');
  let cspServer;
  const config = {
    apiUrl: 'https://api.careloop.example/v1',
    remotes: {
      public: 'https://public.careloop.example/remoteEntry.js',
      patient: 'https://patient.careloop.example:8443/app/remoteEntry.js',
      doctor: 'https://public.careloop.example/doctor/remoteEntry.js', // two remotes on one origin
    },
    connectOrigins: ['https://files.s3.eu-west-1.amazonaws.com/', 'not a url'],
  };
  before(async () => {
    writeFileSync(join(cspDir, 'index.html'), '<!doctype html><title>CareLoop</title>');
    writeFileSync(configFile, JSON.stringify(config));
    cspServer = await startWebServer({ dir: cspDir, port: CSP_PORT, runtimeConfigFile: configFile });
  });
  after(() => cspServer?.close());

  const directives = (header) =>
    Object.fromEntries(
      header
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );

  test("scripts only from the app's own and its remotes' origins; the api for connections; no framing", async () => {
    const res = await get('/patient/dashboard', {}, 'GET', CSP_PORT);
    assert.equal(res.status, 200);
    const csp = directives(res.headers['content-security-policy']);
    assert.deepEqual(csp, {
      'default-src': ["'self'"],
      'script-src': ["'self'", 'https://public.careloop.example', 'https://patient.careloop.example:8443'],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': [
        "'self'",
        'data:',
        'https://public.careloop.example',
        'https://patient.careloop.example:8443',
        'https://api.careloop.example',
      ],
      'font-src': ["'self'", 'https://public.careloop.example', 'https://patient.careloop.example:8443'],
      'connect-src': [
        "'self'",
        'https://api.careloop.example',
        'https://public.careloop.example',
        'https://patient.careloop.example:8443',
        'https://files.s3.eu-west-1.amazonaws.com',
      ],
      'object-src': ["'none'"],
      'frame-ancestors': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
    });
    assert.ok(!res.headers['content-security-policy'].includes('unsafe-eval'));
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
  });

  test('follows an edit of the runtime config; a broken or hostile one falls back to self only', async () => {
    writeFileSync(
      configFile,
      JSON.stringify({ ...config, remotes: { ...config.remotes, patient: 'https://moved.example/remoteEntry.js' } }),
    );
    const moved = directives((await get('/', {}, 'GET', CSP_PORT)).headers['content-security-policy']);
    assert.deepEqual(moved['script-src'], ["'self'", 'https://public.careloop.example', 'https://moved.example']);

    // Values that are not http(s) URLs never reach the header (no injected directive, no wildcard).
    writeFileSync(
      configFile,
      JSON.stringify({
        apiUrl: "x; script-src 'unsafe-inline'",
        remotes: { public: 'javascript:alert(1)', patient: '*', doctor: 42 },
      }),
    );
    const hostile = (await get('/', {}, 'GET', CSP_PORT)).headers['content-security-policy'];
    assert.match(hostile, /script-src 'self';/);
    assert.ok(!/script-src[^;]*unsafe-inline/.test(hostile));

    writeFileSync(configFile, '{ not json');
    const broken = directives((await get('/', {}, 'GET', CSP_PORT)).headers['content-security-policy']);
    assert.deepEqual(broken['script-src'], ["'self'"]);
    assert.deepEqual(broken['connect-src'], ["'self'"]);
  });

  test('contentSecurityPolicy() without a config: the own origin only', () => {
    assert.match(
      contentSecurityPolicy(undefined),
      /^default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:;/,
    );
  });
});
