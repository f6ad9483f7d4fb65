// `node --test scripts/`: a remote's release is a new folder, then a switch of runtime-config.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { readReleaseLog, releaseId, releaseRemote, rollbackRemote, runCommand } from './release-remote.mjs';

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
  // The site's own page sends a browser to the current release's QA page.
  assert.match(readFileSync(join(site, 'index.html'), 'utf8'), new RegExp(`url=/releases/${a.id}/"`));
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

const HOUR = 3_600_000;
const at = (hours) => new Date(Date.UTC(2026, 0, 1) + hours * HOUR);

test('pruning keeps the current, the previous, those live within the grace period and the newest by release time', () => {
  const prunedSite = join(work, 'pruned-site');
  const release = (i, hours) =>
    releaseRemote({
      owner: 'patient',
      dist: build(`p${i}`, '2.0.0', `v.${i}000000b.js`),
      site: prunedSite,
      url,
      config,
      keep: 1,
      now: at(hours),
    });
  const ids = [release(0, 0).id, release(1, 1).id, release(2, 2).id];
  // All three were live within the last 24 h: none is deleted, whatever --keep says.
  for (const id of ids) assert.ok(existsSync(join(prunedSite, 'releases', id)));
  const d = release(3, 50);
  // Two days later: 0 and 1 age out; 2 is the previous release; 3 is current.
  assert.deepEqual(d.removed.sort(), [ids[0], ids[1]].sort());
  assert.ok(existsSync(join(prunedSite, 'releases', ids[2])), 'the previous release serves the open tabs');
  const log = readReleaseLog(prunedSite);
  assert.deepEqual(Object.keys(log.published).sort(), [ids[2], d.id].sort());
});

test('a rollback switches back atomically and protects the rolled-back-to release, whatever its folder time says', () => {
  const rbSite = join(work, 'rollback-site');
  const release = (i, hours) =>
    releaseRemote({
      owner: 'patient',
      dist: build(`r${i}`, '3.0.0', `v.${i}000000c.js`),
      site: rbSite,
      url,
      config,
      keep: 1,
      now: at(hours),
    });
  const a = release(0, 0);
  const b = release(1, 1);
  const back = rollbackRemote({ owner: 'patient', site: rbSite, url, config, now: at(2) });
  assert.equal(back.id, a.id, 'the default target is the release before the current one');
  assert.equal(
    JSON.parse(readFileSync(config, 'utf8')).remotes.patient,
    `https://patient.example.org/releases/${a.id}/mf-manifest.json`,
  );
  // Days later a new release: a (current until now) is the previous one and stays; b aged out.
  const c = release(2, 100);
  assert.deepEqual(c.removed, [b.id]);
  assert.ok(existsSync(join(rbSite, 'releases', a.id)));
  // A named release that is gone is refused and nothing changes.
  const before = readFileSync(config, 'utf8');
  assert.throws(() => rollbackRemote({ owner: 'patient', site: rbSite, url, config, id: b.id }), /not on the site/);
  assert.equal(readFileSync(config, 'utf8'), before);
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

/** A build with its standalone QA page as webpack.common.ts writes it (`<base href="/">`, relative scripts). */
function buildWithQaPage(name, version) {
  const dist = build(name, version, `main.${name.padEnd(8, '0').slice(0, 8)}.js`);
  // Minified, as the production build writes it.
  const page = `<!doctype html><html><head><base href=/><script defer src=main.js></script></head><body></body></html>`;
  writeFileSync(join(dist, 'index.html'), page);
  writeFileSync(join(dist, 'index.html.br'), brotliCompressSync(page));
  writeFileSync(join(dist, 'index.html.gz'), gzipSync(page));
  return dist;
}

test('a release id is the semver of the build version and a hash of every file built, not of the deploy-time config', () => {
  const dist = buildWithQaPage('id1', '1.4.0+3f2a9c1b');
  const id = releaseId(dist);
  assert.match(id, /^1\.4\.0-[0-9a-f]{8}$/);
  const copy = join(work, 'id1-copy');
  cpSync(dist, copy, { recursive: true });
  writeFileSync(join(copy, 'runtime-config.json'), '{"apiUrl":"http://localhost:4000"}');
  assert.equal(releaseId(copy), id, 'the same build, wherever it is and whatever config sits beside it');
  writeFileSync(join(copy, 'index.html'), 'changed');
  assert.notEqual(releaseId(copy), id, 'a change to any built file (the QA page too) is another release');
  assert.match(releaseId(buildWithQaPage('id2', '2.0.0-rc.1')), /^2\.0\.0-rc\.1-[0-9a-f]{8}$/);
});

test("a release's QA page works from its folder: its base is the folder, its compressed copies say the same", () => {
  const qaSite = join(work, 'qa-site');
  const siteUrl = 'https://cdn.example.org/patient/';
  const { id } = releaseRemote({
    owner: 'patient',
    dist: buildWithQaPage('qa1', '1.0.0+aaaa0000'),
    site: qaSite,
    url: siteUrl,
    config,
  });
  const folder = join(qaSite, 'releases', id);
  const base = `<base href="/patient/releases/${id}/">`;
  assert.ok(readFileSync(join(folder, 'index.html'), 'utf8').includes(base));
  assert.ok(
    brotliDecompressSync(readFileSync(join(folder, 'index.html.br')))
      .toString()
      .includes(base),
  );
  assert.ok(
    gunzipSync(readFileSync(join(folder, 'index.html.gz')))
      .toString()
      .includes(base),
  );
  // The build itself is untouched: it still works at a site's root.
  assert.ok(readFileSync(join(work, 'qa1', 'index.html'), 'utf8').includes('<base href=/>'));
  assert.match(readFileSync(join(qaSite, 'index.html'), 'utf8'), new RegExp(`url=/patient/releases/${id}/"`));
});

test("rollback-remote <remote> [<release-id>]: the site's log supplies the url and config; usage when unclear", () => {
  const cliSite = join(work, 'cli-site');
  const cliConfig = join(work, 'cli-runtime-config.json');
  writeFileSync(cliConfig, JSON.stringify({ apiUrl: 'https://api.example.org', remotes: {} }));
  const release = (i, hours) =>
    releaseRemote({
      owner: 'doctor',
      dist: build(`cli${i}`, '4.0.0', `v.${i}000000d.js`),
      site: cliSite,
      url,
      config: cliConfig,
      now: at(hours),
    });
  const a = release(0, 0);
  const b = release(1, 1);
  const c = release(2, 2);
  const remoteOf = () => JSON.parse(readFileSync(cliConfig, 'utf8')).remotes.doctor;

  const back = runCommand(['rollback', 'doctor', '--site', cliSite]);
  assert.equal(back.code, 0);
  assert.equal(back.out, `rolled doctor back to ${b.id}: https://patient.example.org/releases/${b.id}/mf-manifest.json`);
  assert.equal(remoteOf(), `https://patient.example.org/releases/${b.id}/mf-manifest.json`);
  assert.match(readFileSync(join(cliSite, 'index.html'), 'utf8'), new RegExp(`url=/releases/${b.id}/"`));
  assert.equal(runCommand(['rollback', 'remote-doctor', a.id, '--site', cliSite]).code, 0);
  assert.equal(remoteOf(), `https://patient.example.org/releases/${a.id}/mf-manifest.json`);
  assert.deepEqual(
    readReleaseLog(cliSite).switches.map((s) => [s.id, s.by]),
    [
      [a.id, 'release'],
      [b.id, 'release'],
      [c.id, 'release'],
      [b.id, 'rollback'],
      [a.id, 'rollback'],
    ],
  );

  // No remote, or no site: the usage, and nothing changes.
  const before = readFileSync(cliConfig, 'utf8');
  for (const args of [['rollback'], ['rollback', 'doctor']]) {
    const result = runCommand(args);
    assert.equal(result.code, 2);
    assert.match(result.err, /^usage: npm run rollback-remote -- <public\|patient\|doctor> \[<release-id>\]/);
  }
  // Another remote's site is refused: patient must never point at doctor's releases.
  assert.throws(() => runCommand(['rollback', 'patient', '--site', cliSite]), /holds releases of doctor, not patient/);
  const patientDist = build('cli-patient', '4.0.0', 'v.0000000e.js');
  assert.throws(
    () => releaseRemote({ owner: 'patient', dist: patientDist, site: cliSite, url, config: cliConfig }),
    /holds releases of doctor, not patient/,
  );
  assert.ok(!existsSync(join(cliSite, 'releases', releaseId(patientDist))), 'refused before its folder is made');
  assert.equal(readFileSync(cliConfig, 'utf8'), before);
});
