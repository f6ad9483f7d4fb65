// `node --test scripts/`: the static header files (security-headers.mjs) say what the Node web server answers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { startWebServer } from './web-server.mjs';
import { IMMUTABLE, metaContentSecurityPolicy, withMetaPolicy, writeStaticHeaders } from './security-headers.mjs';

const PORT = 47300 + (process.pid % 100);
const base = `http://127.0.0.1:${PORT}`;
const dir = mkdtempSync(join(tmpdir(), 'careloop-headers-'));
const RELEASE = 'releases/1.2.0-abcdef12';
const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>CareLoop</title><script defer src="/main.0123abcd.js"></script></head></html>';
const runtimeConfig = {
  apiUrl: 'https://api.careloop.example',
  remotes: {
    public: 'https://cdn.careloop.example/public/releases/1.0.0-11111111/mf-manifest.json',
    patient: 'https://patient.careloop.example/mf-manifest.json',
    doctor: 'https://cdn.careloop.example/doctor/releases/2.0.0-22222222/mf-manifest.json',
  },
  connectOrigins: ['https://files.s3.eu-west-1.amazonaws.com'],
};
let server;

before(async () => {
  writeFileSync(join(dir, 'index.html'), PAGE);
  writeFileSync(join(dir, 'index.html.br'), brotliCompressSync(PAGE));
  writeFileSync(join(dir, 'main.0123abcd.js'), 'var shell;');
  writeFileSync(join(dir, 'runtime-config.json'), JSON.stringify(runtimeConfig));
  mkdirSync(join(dir, RELEASE), { recursive: true });
  for (const file of ['mf-manifest.json', 'remoteEntry.js']) writeFileSync(join(dir, RELEASE, file), '{}');
  writeFileSync(join(dir, RELEASE, 'index.html'), PAGE);
  writeFileSync(join(dir, 'releases', 'release-log.json'), '{}');
  server = await startWebServer({ dir, port: PORT });
  writeStaticHeaders({ dir, runtimeConfig, meta: true });
});
after(() => server?.close());

/** `_headers` as { path: { header: value } }. */
function parseHeadersFile(text) {
  const rules = {};
  let path;
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    if (!line.startsWith(' ')) rules[(path = line.trim())] = {};
    else {
      const [name, ...value] = line.trim().split(': ');
      rules[path][name] = value.join(': ');
    }
  }
  return rules;
}

/** The nginx snippet as { location: { header: value } }. */
function parseNginx(text) {
  const locations = {};
  for (const [, match, body] of text.matchAll(/^location (.+) \{\n([^}]*)\}/gm))
    locations[match] = Object.fromEntries([...body.matchAll(/add_header (\S+) "([^"]*)" always;/g)].map(([, n, v]) => [n, v]));
  return locations;
}

test('_headers and the nginx snippet carry the headers the Node server answers, the same CSP first', async () => {
  const answered = (await fetch(`${base}/patient/dashboard`)).headers;
  const csp = answered.get('content-security-policy');
  assert.match(csp, /script-src 'self' https:\/\/cdn\.careloop\.example https:\/\/patient\.careloop\.example;/);

  const rules = parseHeadersFile(readFileSync(join(dir, '_headers'), 'utf8'));
  const nginx = parseNginx(readFileSync(join(dir, 'nginx-headers.conf'), 'utf8'));
  assert.equal(rules['/*']['Content-Security-Policy'], csp);
  assert.ok(Object.keys(nginx).length >= 4);
  for (const [location, headers] of Object.entries(nginx)) assert.equal(headers['Content-Security-Policy'], csp, location);
  for (const name of ['X-Content-Type-Options', 'Referrer-Policy', 'X-Frame-Options', 'Access-Control-Allow-Origin']) {
    assert.ok(answered.get(name), name);
    assert.equal(rules['/*'][name], answered.get(name), name);
    for (const [location, headers] of Object.entries(nginx))
      assert.equal(headers[name], answered.get(name), `${location} ${name}`);
  }
});

test('caching: releases and hashed files immutable, runtime-config.json and pages revalidated — on the server and in the files', async () => {
  const cache = async (path) => (await fetch(`${base}${path}`)).headers.get('cache-control');
  for (const path of [`/${RELEASE}/mf-manifest.json`, `/${RELEASE}/remoteEntry.js`, '/main.0123abcd.js'])
    assert.equal(await cache(path), IMMUTABLE, path);
  for (const path of ['/runtime-config.json', '/', '/patient/dashboard', '/releases/release-log.json'])
    assert.equal(await cache(path), 'no-cache', path);

  const rules = parseHeadersFile(readFileSync(join(dir, '_headers'), 'utf8'));
  assert.equal(rules['/releases/:release/*']['Cache-Control'], IMMUTABLE);
  assert.equal(rules['/main.0123abcd.js']['Cache-Control'], IMMUTABLE);
  for (const path of ['/', '/index.html', '/runtime-config.json']) assert.equal(rules[path]['Cache-Control'], 'no-cache', path);
  // Never under /*: Netlify and Cloudflare join one header's values from all matching rules.
  assert.equal(rules['/*']['Cache-Control'], undefined);

  const text = readFileSync(join(dir, 'nginx-headers.conf'), 'utf8');
  const nginx = parseNginx(text);
  assert.equal(nginx['^~ /releases/']['Cache-Control'], IMMUTABLE);
  assert.equal(nginx['~ "\\.[0-9a-f]{8}\\.\\w+$"']['Cache-Control'], IMMUTABLE);
  assert.equal(nginx['= /runtime-config.json']['Cache-Control'], 'no-cache');
  assert.equal(nginx['/']['Cache-Control'], 'no-cache');
  assert.match(text, /location = \/runtime-config\.json \{[^}]*etag on;/);
});

test('runtime-config.json is revalidated by its ETag', async () => {
  const other = await startWebServer({ dir, port: PORT + 1, runtimeConfigFile: join(dir, 'runtime-config.json') });
  try {
    const first = await fetch(`http://127.0.0.1:${PORT + 1}/runtime-config.json`);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const again = await fetch(`http://127.0.0.1:${PORT + 1}/runtime-config.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  } finally {
    other.close();
  }
});

test('the pages carry the same policy in a meta element, less what a meta policy cannot say; releases stay as published', async () => {
  const csp = (await fetch(`${base}/`)).headers.get('content-security-policy');
  const meta = metaContentSecurityPolicy(runtimeConfig);
  assert.equal(meta, csp.replace("; frame-ancestors 'none'", ''));
  const page = readFileSync(join(dir, 'index.html'), 'utf8');
  assert.ok(
    page.startsWith(
      `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${meta}">`,
    ),
  );
  assert.equal(brotliDecompressSync(readFileSync(join(dir, 'index.html.br'))).toString(), page);
  // Written again for another config: one meta, the new one.
  const moved = { ...runtimeConfig, remotes: { ...runtimeConfig.remotes, patient: 'https://moved.example/mf-manifest.json' } };
  const again = withMetaPolicy(page, moved);
  assert.equal(again.match(/http-equiv/g).length, 1);
  assert.match(again, /https:\/\/moved\.example/);
  assert.equal(readFileSync(join(dir, RELEASE, 'index.html'), 'utf8'), PAGE);
});

test('nginx is never handed a value it would read as a variable', () => {
  const hostile = { remotes: { public: 'https://a$host.example/mf-manifest.json' } };
  const empty = mkdtempSync(join(tmpdir(), 'careloop-headers-'));
  assert.throws(() => writeStaticHeaders({ dir: empty, runtimeConfig: hostile }), /nginx cannot quote/);
  assert.deepEqual(readdirSync(empty), []);
});
