// The one source of the web apps' security and caching headers. scripts/web-server.mjs answers with
// them per request; for hosts that serve files only, writeStaticHeaders() puts the same headers in
// static files beside an app (docs/deploy-static.md): a Netlify / Cloudflare Pages `_headers` file, an
// nginx snippet, and — where no header can be set at all — a <meta> policy in the pages.
//   node scripts/security-headers.mjs --dir <app folder> [--config <runtime-config.json>] [--meta]
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/** A file name webpack hashed (`[name].[contenthash:8].js`): its content never changes at its URL. */
export const HASHED = /\.[0-9a-f]{8}\.\w+$/;
/** A file inside an immutable release folder (scripts/release-remote.mjs), mf-manifest.json and remoteEntry.js too. */
export const IN_RELEASE = /(^|\/)releases\/[^/]+\/./;
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Kept, but asked about again (ETag / If-None-Match) before each use. */
export const REVALIDATE = 'no-cache';

/** The Cache-Control of a path: immutable for hashed files and release folders, revalidated for the rest. */
export const cacheControl = (pathname) => (HASHED.test(pathname) || IN_RELEASE.test(pathname) ? IMMUTABLE : REVALIDATE);

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

/**
 * The policy as a page's <meta http-equiv> carries it. Browsers ignore frame-ancestors, report-uri
 * and sandbox in a meta policy (CSP Level 3, §6.1), so they are left out rather than pretended: a
 * host that can send no header cannot forbid framing (X-Frame-Options has no meta form either).
 */
export const metaContentSecurityPolicy = (runtimeConfig) =>
  contentSecurityPolicy(runtimeConfig)
    .split('; ')
    .filter((directive) => !/^(frame-ancestors|report-uri|report-to|sandbox)\b/.test(directive))
    .join('; ');

/** The headers on every answer of an app, whatever the file. */
export const securityHeaders = (runtimeConfig) => ({
  'Content-Security-Policy': contentSecurityPolicy(runtimeConfig),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // Older browsers' anti-framing; CSP frame-ancestors 'none' is the same for newer ones.
  'X-Frame-Options': 'DENY',
  // Remotes' manifests, entries and chunks are fetched by the shell's origin.
  'Access-Control-Allow-Origin': '*',
});

/** Every file under dir, as URL paths (`/assets/x.js`). */
function filesOf(dir, under = dir) {
  return readdirSync(under, { withFileTypes: true }).flatMap((entry) => {
    const path = join(under, entry.name);
    return entry.isDirectory() ? filesOf(dir, path) : [`/${relative(dir, path).split(sep).join('/')}`];
  });
}

/** Cloudflare Pages' limit on a `_headers` file's rules (Netlify has none). */
const CLOUDFLARE_RULES = 100;

/**
 * A Netlify / Cloudflare Pages `_headers` file. Both join the values of one header from several
 * matching rules with a comma, so Cache-Control is never given under `/*`: the hashed files are
 * named one by one, release folders and the entry points by their own rules.
 */
export function headersFile(runtimeConfig, files) {
  const rule = (path, headers) => [path, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  const hashed = files.filter((file) => HASHED.test(file) && !IN_RELEASE.test(file) && !/\.(br|gz)$/.test(file));
  return `${[
    '# Generated by scripts/security-headers.mjs from runtime-config.json; regenerate when it changes.',
    rule('/*', securityHeaders(runtimeConfig)),
    rule('/releases/:release/*', { 'Cache-Control': IMMUTABLE }),
    ...['/', '/index.html', '/runtime-config.json', '/remoteEntry.js', '/mf-manifest.json'].map((path) =>
      rule(path, { 'Cache-Control': REVALIDATE }),
    ),
    ...hashed.map((path) => rule(path, { 'Cache-Control': IMMUTABLE })),
  ].join('\n\n')}\n`;
}

/**
 * An nginx snippet for the app's `server { root <app folder>; include nginx-headers.conf; }`. A
 * location with an add_header of its own drops the server's, so each one repeats the security headers.
 */
export function nginxSnippet(runtimeConfig) {
  const add = (headers) =>
    Object.entries(headers).map(([name, value]) => {
      // nginx reads `$` as a variable and `"` as the string's end: an origin holding one is refused.
      if (/["$\\\r\n]/.test(value)) throw new Error(`${name}: a value nginx cannot quote: ${value}`);
      return `    add_header ${name} "${value}" always;`;
    });
  const security = securityHeaders(runtimeConfig);
  const location = (match, cache, ...extra) =>
    [`location ${match} {`, ...add({ ...security, 'Cache-Control': cache }), ...extra.map((l) => `    ${l}`), '}'].join('\n');
  return `${[
    '# Generated by scripts/security-headers.mjs from runtime-config.json; regenerate when it changes.',
    "# Include inside the app's server block: server { root <app folder>; include nginx-headers.conf; }",
    '# Release folders never change, mf-manifest.json and remoteEntry.js inside them neither.',
    location('^~ /releases/', IMMUTABLE),
    location('= /releases/release-log.json', REVALIDATE),
    '# Edited at deploy time: kept, but revalidated with its ETag on each use.',
    location('= /runtime-config.json', REVALIDATE, 'etag on;'),
    '# Files webpack named by their content.',
    location('~ "\\.[0-9a-f]{8}\\.\\w+$"', IMMUTABLE),
    '# Pages, remoteEntry.js and mf-manifest.json at the root; a deep link gets the app.',
    location('/', REVALIDATE, 'etag on;', 'try_files $uri /index.html;'),
  ].join('\n')}\n`;
}

const META = /<meta http-equiv="Content-Security-Policy" content="[^"]*">/;
const attribute = (value) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The page with the meta policy at the top of its <head>, before any script it loads (an older one replaced). */
export function withMetaPolicy(html, runtimeConfig) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${attribute(metaContentSecurityPolicy(runtimeConfig))}">`;
  if (META.test(html)) return html.replace(META, () => meta);
  // After the charset declaration if there is one (it must come within the first 1024 bytes).
  const at = /<meta charset="?[\w-]+"?\/?>/i.exec(html) ?? /<head>/.exec(html);
  if (!at) throw new Error('the page has no <head>');
  const end = at.index + at[0].length;
  return `${html.slice(0, end)}${meta}${html.slice(end)}`;
}

/**
 * Writes `_headers` and `nginx-headers.conf` into an app's folder (a dist, or the folder a deployment
 * uploads); with `meta`, also the meta policy into its pages, with fresh Brotli and gzip copies where
 * the build made some. Pages inside release folders are never rewritten: a release does not change.
 * @param {{ dir: string, runtimeConfig: unknown, meta?: boolean }} options
 */
export function writeStaticHeaders({ dir, runtimeConfig, meta = false }) {
  const files = filesOf(dir);
  // Both made before either is written: a value one of them refuses leaves neither half done.
  const headers = headersFile(runtimeConfig, files);
  const nginx = nginxSnippet(runtimeConfig);
  const rules = headers.split('\n').filter((line) => line.startsWith('/')).length;
  if (rules > CLOUDFLARE_RULES)
    console.warn(`${dir}/_headers: ${rules} rules; Cloudflare Pages reads the first ${CLOUDFLARE_RULES} only`);
  writeFileSync(join(dir, '_headers'), headers);
  writeFileSync(join(dir, 'nginx-headers.conf'), nginx);
  if (!meta) return;
  for (const page of files.filter((file) => file.endsWith('.html') && !IN_RELEASE.test(file))) {
    const path = join(dir, page);
    const html = withMetaPolicy(readFileSync(path, 'utf8'), runtimeConfig);
    writeFileSync(path, html);
    if (existsSync(`${path}.br`)) writeFileSync(`${path}.br`, brotliCompressSync(html));
    if (existsSync(`${path}.gz`)) writeFileSync(`${path}.gz`, gzipSync(html, { level: 9 }));
  }
}

/** A runtime-config.json as the web server reads it: anything unreadable counts as none. */
export async function readRuntimeConfig(file) {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

// Run as a command (not imported). Neither import.meta nor a top-level await: Playwright loads this
// file with require(), through web-server.mjs.
if (process.argv[1]?.endsWith('security-headers.mjs')) {
  const { values } = parseArgs({
    options: { dir: { type: 'string' }, config: { type: 'string' }, meta: { type: 'boolean' } },
  });
  if (!values.dir) {
    console.error('security-headers: --dir is required');
    process.exit(2);
  }
  const configFile = values.config ?? join(values.dir, 'runtime-config.json');
  if (!existsSync(configFile)) console.warn(`security-headers: no ${configFile}: the policy allows the own origin only`);
  readRuntimeConfig(configFile).then((runtimeConfig) => {
    writeStaticHeaders({ dir: values.dir, runtimeConfig, meta: values.meta });
    console.log(
      `wrote ${join(values.dir, '_headers')} and nginx-headers.conf${values.meta ? ", and the pages' meta policy" : ''}`,
    );
  });
}
