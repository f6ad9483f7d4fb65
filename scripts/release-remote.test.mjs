// `node --test scripts/`: a remote's release is a new folder, then a switch of runtime-config.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { releaseRemote } from './release-remote.mjs';

const work = mkdtempSync(join(tmpdir(), 'careloop-release-'));
const config = join(work, 'runtime-config.json');
const site = join(work, 'patient-site');
const url = 'https://patient.example.org/';

/** A remote's dist as the build writes it: a manifest naming its version, and a hashed chunk. */
function build(name, version, chunk) {
  const dist = join(work, name);
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, 'mf-manifest.json'), JSON.stringify({ metaData: { buildInfo: { buildVersion: version } }, chunk }));
  writeFileSync(join(dist, chunk), `/* ${name} */`);
  return dist;
}

test('each deploy adds a release folder, switches only its remote, and keeps the older ones', () => {
  const others = { public: 'https://public.example.org/mf-manifest.json', doctor: 'https://doctor.example.org/mf-manifest.json' };
  writeFileSync(config, JSON.stringify({ apiUrl: 'https://api.example.org', remotes: { ...others, patient: 'x' } }));

  const a = releaseRemote({ owner: 'patient', dist: build('a', '1.2.0', 'view.aaaaaaaa.js'), site, url, config });
  assert.match(a.id, /^1\.2\.0-[0-9a-f]{8}$/);
  const b = releaseRemote({ owner: 'patient', dist: build('b', '1.2.0', 'view.bbbbbbbb.js'), site, url, config });
  assert.notEqual(b.id, a.id, 'two builds of one version are two releases');

  const written = JSON.parse(readFileSync(config, 'utf8'));
  assert.equal(written.remotes.patient, `https://patient.example.org/releases/${b.id}/mf-manifest.json`);
  assert.equal(written.remotes.public, others.public);
  assert.equal(written.apiUrl, 'https://api.example.org');
  // The tab opened on release a still finds its files.
  assert.ok(existsSync(join(site, 'releases', a.id, 'view.aaaaaaaa.js')));
  assert.ok(existsSync(join(site, 'releases', b.id, 'view.bbbbbbbb.js')));
});

test('only the newest releases are kept', async () => {
  const ids = [];
  for (let i = 0; i < 4; i++) {
    ids.push(
      releaseRemote({ owner: 'patient', dist: build(`k${i}`, '2.0.0', `v.${i}000000a.js`), site, url, config, keep: 2 }).id,
    );
    await new Promise((resolve) => setTimeout(resolve, 20)); // distinct publish times
  }
  assert.ok(existsSync(join(site, 'releases', ids[3])));
  assert.ok(existsSync(join(site, 'releases', ids[2])), 'the previous release serves the open tabs');
  assert.ok(!existsSync(join(site, 'releases', ids[1])));
});

test('a dist without a build version, or an unknown remote, is refused before anything changes', () => {
  const before = readFileSync(config, 'utf8');
  const bad = join(work, 'bad');
  mkdirSync(bad);
  writeFileSync(join(bad, 'mf-manifest.json'), '{}');
  assert.throws(() => releaseRemote({ owner: 'patient', dist: bad, site, url, config }), /buildVersion/);
  assert.throws(
    () => releaseRemote({ owner: 'nurse', dist: build('n', '1.0.0', 'n.0000000a.js'), site, url, config }),
    /--owner/,
  );
  assert.equal(readFileSync(config, 'utf8'), before);
});
