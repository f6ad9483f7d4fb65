// Deploys one built remote as an immutable release (README "Releasing a remote alone"): its dist is
// copied into <site>/releases/<id>/ and only then does runtime-config.json name that release. Older
// release folders stay, so a tab opened before the deploy keeps loading its own release's chunks;
// <site>/releases/release-log.json records what went live when, for pruning and rollback.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/** Releases kept per remote by release time, besides the current and previous ones. */
export const KEEP_RELEASES = 5;
/** A release that was current less than this long ago is kept: a tab opened on it may still be loading its views. */
export const GRACE_HOURS = 24;
const OWNERS = ['public', 'patient', 'doctor'];
/** The remote's release history, beside its release folders: what went live when (never folder times). */
const LOG_FILE = 'release-log.json';

/**
 * The release's folder name: the remote's build version (mf-manifest.json metaData.buildInfo.buildVersion)
 * and a hash of its manifest, which names every hashed file, so two builds of one version never share a folder.
 */
export function releaseId(dist) {
  const manifestText = readFileSync(join(dist, 'mf-manifest.json'), 'utf8');
  const version = JSON.parse(manifestText)?.metaData?.buildInfo?.buildVersion;
  if (typeof version !== 'string' || !/^[\w.+-]+$/.test(version))
    throw new Error(`${dist}: mf-manifest.json has no usable buildVersion`);
  const hash = createHash('sha256').update(manifestText).digest('hex').slice(0, 8);
  return `${version}-${hash}`;
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
  const file = join(site, 'releases', LOG_FILE);
  writeFileSync(`${file}.next`, `${JSON.stringify(log, null, 2)}\n`);
  renameSync(`${file}.next`, file);
}

/** Points runtime-config.json's `owner` at a release: one rename, so the shell never reads half a file. */
function switchTo({ owner, url, config, id }) {
  const runtimeConfig = JSON.parse(readFileSync(config, 'utf8'));
  const manifestUrl = `${url.replace(/\/$/, '')}/releases/${id}/mf-manifest.json`;
  runtimeConfig.remotes = { ...runtimeConfig.remotes, [owner]: manifestUrl };
  writeFileSync(`${config}.next`, `${JSON.stringify(runtimeConfig, null, 2)}\n`);
  renameSync(`${config}.next`, config);
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
  // A release never changes once published: the same build again is a no-op.
  if (!existsSync(folder)) {
    mkdirSync(releases, { recursive: true });
    const partial = join(releases, `.${id}.partial`);
    rmSync(partial, { recursive: true, force: true });
    cpSync(dist, partial, { recursive: true });
    renameSync(partial, folder);
    log.published[id] = now.toISOString();
  }
  const manifestUrl = switchTo({ owner, url, config, id });
  log.switches.push({ id, at: now.toISOString(), by: 'release' });
  const removed = prune(site, log, { keep, graceHours, now });
  writeReleaseLog(site, log);
  return { id, manifestUrl, removed };
}

/**
 * Switches a remote back to an earlier release still on the site: `id`, or the one current before
 * the current one. Atomic like a release (one rename of runtime-config.json); nothing is deleted.
 * @param {{ owner: string, site: string, url: string, config: string, id?: string, now?: Date }} options
 */
export function rollbackRemote({ owner, site, url, config, id, now = new Date() }) {
  if (!OWNERS.includes(owner)) throw new Error(`--owner must be one of ${OWNERS.join(', ')}`);
  const log = readReleaseLog(site, now);
  const current = log.switches.at(-1)?.id;
  const target = id ?? [...log.switches].reverse().find((s) => s.id !== current)?.id;
  if (!target) throw new Error('no earlier release to roll back to: name one with --release');
  if (!existsSync(join(site, 'releases', target, 'mf-manifest.json'))) throw new Error(`release ${target} is not on the site`);
  const manifestUrl = switchTo({ owner, url, config, id: target });
  log.switches.push({ id: target, at: now.toISOString(), by: 'rollback' });
  writeReleaseLog(site, log);
  return { id: target, manifestUrl };
}

// Run as a command (not imported by a test). Not import.meta: Playwright loads this file as CommonJS.
//   node scripts/release-remote.mjs --owner patient --dist … --site … --url … --config … [--keep 5] [--grace-hours 24]
//   node scripts/release-remote.mjs rollback --owner patient --site … --url … --config … [--release <id>]
if (process.argv[1]?.endsWith('release-remote.mjs')) {
  const rollback = process.argv[2] === 'rollback';
  const { values } = parseArgs({
    args: process.argv.slice(rollback ? 3 : 2),
    options: {
      owner: { type: 'string' },
      dist: { type: 'string' },
      site: { type: 'string' },
      url: { type: 'string' },
      config: { type: 'string' },
      keep: { type: 'string' },
      'grace-hours': { type: 'string' },
      release: { type: 'string' },
    },
  });
  for (const name of rollback ? ['owner', 'site', 'url', 'config'] : ['owner', 'dist', 'site', 'url', 'config'])
    if (!values[name]) {
      console.error(`release-remote: --${name} is required`);
      process.exit(2);
    }
  if (rollback) {
    const result = rollbackRemote({ ...values, id: values.release });
    console.log(`rolled ${values.owner} back to ${result.id}: ${result.manifestUrl}`);
  } else {
    const result = releaseRemote({
      ...values,
      keep: values.keep ? Number(values.keep) : KEEP_RELEASES,
      graceHours: values['grace-hours'] ? Number(values['grace-hours']) : GRACE_HOURS,
    });
    console.log(`released ${values.owner} ${result.id}: ${result.manifestUrl}`);
    if (result.removed.length) console.log(`removed old releases: ${result.removed.join(', ')}`);
  }
}
