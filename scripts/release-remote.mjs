// Deploys one built remote as an immutable release (README "Releasing a remote alone"): its dist is
// copied into <site>/releases/<id>/ and only then does runtime-config.json name that release. Older
// release folders stay, so a tab opened before the deploy keeps loading its own release's chunks.
//
//   node scripts/release-remote.mjs --owner patient --dist remote-patient/dist --site /srv/patient \
//     --url https://patient.example.org --config /srv/shell/runtime-config.json [--keep 5]
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/** Releases kept per remote, the current one included: older ones are deleted by the next deploy. */
export const KEEP_RELEASES = 5;
const OWNERS = ['public', 'patient', 'doctor'];

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
 * @param {{ owner: string, dist: string, site: string, url: string, config: string, keep?: number }} options
 * @returns {{ id: string, manifestUrl: string, removed: string[] }}
 */
export function releaseRemote({ owner, dist, site, url, config, keep = KEEP_RELEASES }) {
  if (!OWNERS.includes(owner)) throw new Error(`--owner must be one of ${OWNERS.join(', ')}`);
  if (!Number.isInteger(keep) || keep < 2) throw new Error('--keep must be 2 or more: the previous release serves open tabs');
  const id = releaseId(dist);
  const releases = join(site, 'releases');
  const folder = join(releases, id);
  // A release never changes once published: the same build again is a no-op.
  if (!existsSync(folder)) {
    mkdirSync(releases, { recursive: true });
    const partial = join(releases, `.${id}.partial`);
    rmSync(partial, { recursive: true, force: true });
    cpSync(dist, partial, { recursive: true });
    renameSync(partial, folder);
  }

  // The switch: one rename, so the shell never reads half a file.
  const runtimeConfig = JSON.parse(readFileSync(config, 'utf8'));
  const manifestUrl = `${url.replace(/\/$/, '')}/releases/${id}/mf-manifest.json`;
  runtimeConfig.remotes = { ...runtimeConfig.remotes, [owner]: manifestUrl };
  const next = `${config}.next`;
  writeFileSync(next, `${JSON.stringify(runtimeConfig, null, 2)}\n`);
  renameSync(next, config);

  // Newest first by the time each was published; the current one is never removed.
  const published = readdirSync(releases, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== id)
    .map((entry) => ({ name: entry.name, time: statSync(join(releases, entry.name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  const removed = published.slice(keep - 1).map((entry) => entry.name);
  for (const name of removed) rmSync(join(releases, name), { recursive: true, force: true });
  return { id, manifestUrl, removed };
}

// Run as a command (not imported by a test). Not import.meta: Playwright loads this file as CommonJS.
if (process.argv[1]?.endsWith('release-remote.mjs')) {
  const { values } = parseArgs({
    options: {
      owner: { type: 'string' },
      dist: { type: 'string' },
      site: { type: 'string' },
      url: { type: 'string' },
      config: { type: 'string' },
      keep: { type: 'string' },
    },
  });
  for (const name of ['owner', 'dist', 'site', 'url', 'config'])
    if (!values[name]) {
      console.error(`release-remote: --${name} is required`);
      process.exit(2);
    }
  const result = releaseRemote({ ...values, keep: values.keep ? Number(values.keep) : KEEP_RELEASES });
  console.log(`released ${values.owner} ${result.id}: ${result.manifestUrl}`);
  if (result.removed.length) console.log(`removed old releases: ${result.removed.join(', ')}`);
}
