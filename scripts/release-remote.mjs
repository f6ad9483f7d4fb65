// Deploys one built remote as an immutable release (docs/releases.md): its dist is
// copied into <site>/releases/<id>/ and only then does runtime-config.json name that release. Older
// release folders stay, so a tab opened before the deploy keeps loading its own release's chunks;
// <site>/releases/release-log.json records what went live when, for pruning and rollback.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/** Releases kept per remote by release time, besides the current and previous ones. */
export const KEEP_RELEASES = 5;
/** A release that was current less than this long ago is kept: a tab opened on it may still be loading its views. */
export const GRACE_HOURS = 24;
const OWNERS = ['public', 'patient', 'doctor'];
/** The remote's release history, beside its release folders: what went live when (never folder times). */
const LOG_FILE = 'release-log.json';

/** The deploy-time file (and its compressed copies): not part of what was built. */
const DEPLOY_TIME = /(^|\/)runtime-config\.json(\.br|\.gz)?$/;
/** A remote's version as its manifest gives it (`1.4.0+3f2a9c1b`: semver, build metadata after the `+`). */
const BUILD_VERSION = /^(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)(?:\+[0-9A-Za-z.-]+)?$/;

/** Every file under `dir`, as paths relative to it with `/`, sorted: the same build lists the same. */
function filesOf(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      relative(dir, join(entry.parentPath ?? entry.path, entry.name))
        .split('\\')
        .join('/'),
    )
    .sort();
}

/**
 * The release's folder name, `<version>-<hash>` (`1.4.0-9c41e07a`): the remote's package version, as
 * its mf-manifest.json's `metaData.buildInfo.buildVersion` gives it, and a hash of every file the
 * build wrote (names and contents), so two builds of one version never share a folder and the same
 * build twice is the same release.
 */
export function releaseId(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, 'mf-manifest.json'), 'utf8'));
  const buildVersion = manifest?.metaData?.buildInfo?.buildVersion;
  const version = typeof buildVersion === 'string' ? BUILD_VERSION.exec(buildVersion)?.[1] : undefined;
  if (!version) throw new Error(`${dist}: mf-manifest.json has no usable buildVersion (a semver, e.g. 1.4.0+3f2a9c1b)`);
  const hash = createHash('sha256');
  for (const file of filesOf(dist)) {
    if (DEPLOY_TIME.test(file)) continue;
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(dist, file)))
      .update('\0');
  }
  return `${version}-${hash.digest('hex').slice(0, 8)}`;
}

/** The path part of the site's URL, without its trailing `/`: `https://x.org/patient/` → `/patient`. */
const sitePath = (url) => new URL(url).pathname.replace(/\/+$/, '');

/** Writes `file` whole or not at all: a temporary file, then one rename. */
function writeAtomically(file, content) {
  writeFileSync(`${file}.next`, content);
  renameSync(`${file}.next`, file);
}

/**
 * Makes a copy of the build work from its release folder: the standalone QA page's `<base href>`
 * (`/` as built, webpack.common.ts) becomes the folder's path, so its scripts and deep links resolve
 * there; its Brotli and gzip copies are made again, as the web server prefers them.
 */
function placeQaPage(folder, base) {
  const page = join(folder, 'index.html');
  if (!existsSync(page)) return;
  const html = readFileSync(page, 'utf8');
  // As html-webpack-plugin writes it, minified (`<base href=/>`) or not (`<base href="/">`).
  const tag = /<base\s+href=(?:"[^"]*"|'[^']*'|[^\s"'>]+)\s*\/?>/;
  if (!tag.test(html)) throw new Error(`${page}: no <base href> to point at the release's folder`);
  const placed = html.replace(tag, `<base href="${base}">`);
  writeFileSync(page, placed);
  if (existsSync(`${page}.br`)) writeFileSync(`${page}.br`, brotliCompressSync(placed));
  if (existsSync(`${page}.gz`)) writeFileSync(`${page}.gz`, gzipSync(placed));
}

/**
 * The site's own `/`: a page that sends the browser to the current release's QA page (a meta refresh,
 * as scripts may only come from files). Any static host serves it; rewritten on every switch.
 */
function pointSiteRoot(site, url, id) {
  const target = `${sitePath(url)}/releases/${id}/`;
  writeAtomically(
    join(site, 'index.html'),
    `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8" />\n    <meta http-equiv="refresh" content="0; url=${target}" />\n    <title>Current release ${id}</title>\n  </head>\n  <body>\n    <p>The current release is <a href="${target}">${id}</a>.</p>\n  </body>\n</html>\n`,
  );
}

/**
 * The log of a remote's site: `published` (id → when its folder was made) and `switches` (each time
 * runtime-config.json was pointed at a release, oldest first). Folders made before there was a log
 * are entered as published now, so they age out like any other release.
 */
export function readReleaseLog(site, now = new Date()) {
  const releases = join(site, 'releases');
  const file = join(releases, LOG_FILE);
  const log = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { published: {}, switches: [] };
  if (existsSync(releases))
    for (const entry of readdirSync(releases, { withFileTypes: true }))
      if (entry.isDirectory() && !entry.name.startsWith('.') && !log.published[entry.name])
        log.published[entry.name] = now.toISOString();
  return log;
}

function writeReleaseLog(site, log) {
  writeAtomically(join(site, 'releases', LOG_FILE), `${JSON.stringify(log, null, 2)}\n`);
}

/** Points runtime-config.json's `owner` at a release: one rename, so the shell never reads half a file. */
function switchTo({ owner, url, config, id }) {
  const runtimeConfig = JSON.parse(readFileSync(config, 'utf8'));
  const manifestUrl = `${url.replace(/\/$/, '')}/releases/${id}/mf-manifest.json`;
  runtimeConfig.remotes = { ...runtimeConfig.remotes, [owner]: manifestUrl };
  writeAtomically(config, `${JSON.stringify(runtimeConfig, null, 2)}\n`);
  return manifestUrl;
}

/**
 * The releases a prune must keep: the current and the previous one, every release that was current
 * within the grace period (open tabs may still load its views), and the newest `keep` by release time.
 */
export function releasesToKeep(log, { keep, graceHours = GRACE_HOURS, now = new Date() }) {
  const kept = new Set();
  const { switches } = log;
  const current = switches.at(-1)?.id;
  if (current) kept.add(current);
  const previous = [...switches].reverse().find((s) => s.id !== current)?.id;
  if (previous) kept.add(previous);
  const since = now.getTime() - graceHours * 3_600_000;
  // A release stopped being current at the next switch: kept while that was within the grace period.
  switches.forEach((s, i) => {
    const until = switches[i + 1] ? Date.parse(switches[i + 1].at) : now.getTime();
    if (until >= since) kept.add(s.id);
  });
  Object.entries(log.published)
    .sort(([, a], [, b]) => Date.parse(b) - Date.parse(a))
    .slice(0, keep)
    .forEach(([id]) => kept.add(id));
  return kept;
}

function prune(site, log, options) {
  const kept = releasesToKeep(log, options);
  const removed = Object.keys(log.published).filter((id) => !kept.has(id));
  for (const id of removed) {
    rmSync(join(site, 'releases', id), { recursive: true, force: true });
    delete log.published[id];
  }
  return removed;
}

/**
 * @param {{ owner: string, dist: string, site: string, url: string, config: string, keep?: number, graceHours?: number, now?: Date }} options
 * @returns {{ id: string, manifestUrl: string, removed: string[] }}
 */
export function releaseRemote({
  owner,
  dist,
  site,
  url,
  config,
  keep = KEEP_RELEASES,
  graceHours = GRACE_HOURS,
  now = new Date(),
}) {
  if (!OWNERS.includes(owner)) throw new Error(`--owner must be one of ${OWNERS.join(', ')}`);
  if (!Number.isInteger(keep) || keep < 1) throw new Error('--keep must be 1 or more');
  const id = releaseId(dist);
  const releases = join(site, 'releases');
  const folder = join(releases, id);
  const log = readReleaseLog(site, now);
  if (log.owner && log.owner !== owner) throw new Error(`${site} holds releases of ${log.owner}, not ${owner}`);
  // A release never changes once published: the same build again is a no-op.
  if (!existsSync(folder)) {
    mkdirSync(releases, { recursive: true });
    const partial = join(releases, `.${id}.partial`);
    rmSync(partial, { recursive: true, force: true });
    cpSync(dist, partial, { recursive: true, filter: (from) => !DEPLOY_TIME.test(from) });
    placeQaPage(partial, `${sitePath(url)}/releases/${id}/`);
    renameSync(partial, folder);
    log.published[id] = now.toISOString();
  }
  const manifestUrl = switchTo({ owner, url, config, id });
  pointSiteRoot(site, url, id);
  // What a rollback needs besides the site: whose releases, where they are served, which config names them.
  Object.assign(log, { owner, url, config: resolve(config) });
  log.switches.push({ id, at: now.toISOString(), by: 'release' });
  const removed = prune(site, log, { keep, graceHours, now });
  writeReleaseLog(site, log);
  return { id, manifestUrl, removed };
}

/**
 * Switches a remote back to an earlier release still on the site: `id`, or the one current before
 * the current one. Atomic like a release (one rename of runtime-config.json); nothing is deleted.
 * `url` and `config` default to those of the site's last release.
 * @param {{ owner: string, site: string, url?: string, config?: string, id?: string, now?: Date }} options
 */
export function rollbackRemote({ owner, site, url, config, id, now = new Date() }) {
  if (!OWNERS.includes(owner)) throw new Error(`--owner must be one of ${OWNERS.join(', ')}`);
  const log = readReleaseLog(site, now);
  if (log.owner && log.owner !== owner) throw new Error(`${site} holds releases of ${log.owner}, not ${owner}`);
  url ??= log.url;
  config ??= log.config;
  if (!url || !config) throw new Error(`${site}: its release log names no url or config: give --url and --config`);
  const current = log.switches.at(-1)?.id;
  const target = id ?? [...log.switches].reverse().find((s) => s.id !== current)?.id;
  if (!target) throw new Error('no earlier release to roll back to: name one (rollback-remote <remote> <release-id>)');
  if (!existsSync(join(site, 'releases', target, 'mf-manifest.json'))) throw new Error(`release ${target} is not on the site`);
  const manifestUrl = switchTo({ owner, url, config, id: target });
  pointSiteRoot(site, url, target);
  log.switches.push({ id: target, at: now.toISOString(), by: 'rollback' });
  writeReleaseLog(site, log);
  return { id: target, manifestUrl };
}

const RELEASE_USAGE = `usage: node scripts/release-remote.mjs --owner <public|patient|doctor> --dist <dir> --site <dir> --url <site URL> --config <runtime-config.json> [--keep 5] [--grace-hours 24]`;
const ROLLBACK_USAGE = `usage: npm run rollback-remote -- <public|patient|doctor> [<release-id>] --site <dir> [--url <site URL>] [--config <runtime-config.json>]
  Points the remote back at <release-id>, or at the release before the current one; --url and --config
  default to those of the site's last release. Releases on the site: <site>/releases/release-log.json.`;

/** The command line: a release, or `rollback <remote> [<release-id>]` (also `rollback --owner … [--release …]`). */
export function runCommand(argv) {
  const rollback = argv[0] === 'rollback';
  const { values, positionals } = parseArgs({
    args: argv.slice(rollback ? 1 : 0),
    allowPositionals: rollback,
    options: {
      owner: { type: 'string' },
      dist: { type: 'string' },
      site: { type: 'string' },
      url: { type: 'string' },
      config: { type: 'string' },
      keep: { type: 'string' },
      'grace-hours': { type: 'string' },
      release: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const usage = rollback ? ROLLBACK_USAGE : RELEASE_USAGE;
  if (values.help) return { out: usage, code: 0 };
  if (rollback) {
    const owner = (values.owner ?? positionals[0])?.replace(/^remote-/, '');
    const id = values.release ?? positionals[1];
    if (!owner || !values.site || positionals.length > 2) return { err: usage, code: 2 };
    const result = rollbackRemote({ owner, site: values.site, url: values.url, config: values.config, id });
    return { out: `rolled ${owner} back to ${result.id}: ${result.manifestUrl}`, code: 0 };
  }
  const missing = ['owner', 'dist', 'site', 'url', 'config'].filter((name) => !values[name]);
  if (missing.length) return { err: `--${missing.join(', --')} required\n${usage}`, code: 2 };
  const result = releaseRemote({
    ...values,
    keep: values.keep ? Number(values.keep) : KEEP_RELEASES,
    graceHours: values['grace-hours'] ? Number(values['grace-hours']) : GRACE_HOURS,
  });
  const removed = result.removed.length ? `\nremoved old releases: ${result.removed.join(', ')}` : '';
  return { out: `released ${values.owner} ${result.id}: ${result.manifestUrl}${removed}`, code: 0 };
}

// Run as a command (not imported by a test). Not import.meta: Playwright loads this file as CommonJS.
//   node scripts/release-remote.mjs --owner patient --dist … --site … --url … --config … [--keep 5] [--grace-hours 24]
//   npm run rollback-remote -- patient [<release-id>] --site …   (node scripts/release-remote.mjs rollback …)
if (process.argv[1]?.endsWith('release-remote.mjs')) {
  let result;
  try {
    result = runCommand(process.argv.slice(2));
  } catch (error) {
    result = { err: `release-remote: ${error.message}`, code: 1 };
  }
  if (result.out) console.log(result.out);
  if (result.err) console.error(result.err);
  process.exitCode = result.code;
}
