// Section 2 — does page 1 stay cheap as the tables grow? Page-1 latency of GET /medicalhistories and
// GET /prescription (as the patient and as the doctor) on a database with 1k rows per table (the
// baseline) and one with 1M (100k / 10k with --quick), bulk-seeded by SQL (bench/seed.mjs) into
// the schema the api migrated. The measured users' own data is the same in both (see seed.mjs):
// only the table grows. Both databases are served at once, by two api processes, and sampled in
// alternating rounds, so load from elsewhere on the machine hits both sizes alike.
import { join } from 'node:path';
import { connect, latencyStats, sampleGets, signup } from './lib/http.mjs';
import { createDatabase, freePort, pgAvailable, pgClient, startApi, tempDir } from './lib/proc.mjs';
import { PG_BULK_SETTINGS, seedDatabase } from './seed.mjs';

export const SCALE_RATIO_TARGET = 1.5;
const SMALL = 1_000;
const ROUNDS = 10;
const WARMUP = 20;

export function scaleSizes(quick) {
  return {
    postgres: quick ? 100_000 : 1_000_000,
    // BENCH_PGLITE_ROWS overrides PGlite's big size (1M takes ~100 s to seed here)
    pglite: Number(process.env.BENCH_PGLITE_ROWS) || (quick ? 10_000 : 1_000_000),
    samples: quick ? 50 : 200,
  };
}

const CASES = [
  ['records', 'patient', '/medicalhistories?page=1&limit=10'],
  ['records', 'doctor', '/medicalhistories?page=1&limit=10'],
  ['prescriptions', 'patient', '/prescription?page=1&limit=10'],
  ['prescriptions', 'doctor', '/prescription?page=1&limit=10'],
];

async function people(base) {
  const stamp = Date.now().toString(36);
  const doctor = await signup(base, 'doctor', `scale-doctor-${stamp}@bench.example`, 'Dr Scale');
  const patient = await signup(base, 'patient', `scale-patient-${stamp}@bench.example`, 'Scale Patient', { DOB: '1981-02-03' });
  await connect(base, doctor, patient);
  return { doctor, patient };
}

/** The same request against the small and the big database, alternating rounds of n/ROUNDS each. */
async function interleaved(small, big, n) {
  const rows = [];
  for (const [what, role, path] of CASES) {
    const got = { small: [], big: [] };
    const last = {};
    try {
      for (const t of [small, big]) await sampleGets(t.api.url, path, t.who[role].token, WARMUP);
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 ? ['big', 'small'] : ['small', 'big'];
        for (const k of order) {
          const t = k === 'small' ? small : big;
          const r = await sampleGets(t.api.url, path, t.who[role].token, Math.ceil(n / ROUNDS));
          got[k].push(...r.ms);
          last[k] = r.last;
        }
      }
    } catch (err) {
      throw new Error(
        `${err.message}\napi output (small):\n${small.api.stderr().slice(-1500)}\napi output (big):\n${big.api.stderr().slice(-1500)}`,
        { cause: err },
      );
    }
    const s = { ...latencyStats(got.small), total: last.small.total };
    const b = { ...latencyStats(got.big), total: last.big.total };
    if (s.total !== b.total)
      throw new Error(`${path} as ${role}: ${s.total} own rows at the small size, ${b.total} at the big one`);
    rows.push({ key: `${what}:${role}`, path, role, endpoint: `GET ${path.split('?')[0]} page 1 (${role})`, small: s, big: b });
  }
  return rows;
}

function finish(backend, rows, smallRows, bigRows) {
  return rows.map((r) => ({
    backend,
    ...r,
    smallRows,
    bigRows,
    ratioMedian: r.big.median / r.small.median,
    ratioP99: r.big.p99 / r.small.p99,
  }));
}

async function pgInstance(rows, name, port, log) {
  const db = await createDatabase(name);
  const api = await startApi({ port: await freePort(port), dataDir: tempDir(name), databaseUrl: db.url });
  const who = await people(api.url);
  const client = await pgClient(db.url);
  try {
    await client.query(PG_BULK_SETTINGS);
    const seconds = await seedDatabase({
      exec: (sql) => client.query(sql),
      rows,
      doctorId: who.doctor.id,
      patientId: who.patient.id,
      log,
    });
    const { rows: sz } = await client.query(
      "select pg_size_pretty(pg_total_relation_size('medical_records')) as records, pg_size_pretty(pg_total_relation_size('prescriptions')) as prescriptions",
    );
    log(
      `  postgres: ${rows.toLocaleString('en')} rows per table seeded in ${seconds.toFixed(1)} s (incl. VACUUM ANALYZE); medical_records ${sz[0].records}, prescriptions ${sz[0].prescriptions} with indexes`,
    );
    return { db, api, who, seconds, sizes: sz[0] };
  } finally {
    await client.end();
  }
}

async function scalePostgres({ quick, log }) {
  const { postgres: bigRows, samples } = scaleSizes(quick);
  const small = await pgInstance(SMALL, 'careloop_bench_scale_small', 4712, log);
  let big;
  try {
    big = await pgInstance(bigRows, 'careloop_bench_scale_big', 4722, log);
    log(`  postgres: measuring (${samples} samples per size, interleaved)`);
    const rows = finish('postgres', await interleaved(small, big, samples), SMALL, bigRows);
    return { rows, seed: { smallSeconds: small.seconds, bigSeconds: big.seconds, sizes: big.sizes } };
  } finally {
    for (const x of [big, small]) {
      await x?.api.stop();
      await x?.db.drop();
    }
  }
}

async function pgliteInstance(rows, port, log) {
  const dataDir = tempDir(`scale-pglite-${rows}`);
  const { PGlite } = await import('@electric-sql/pglite');
  port = await freePort(port);
  let api = await startApi({ port, dataDir });
  const who = await people(api.url);
  // The api holds PGlite's data folder exclusively: stop it, seed from this process, start it again.
  await api.stop();
  const pg = await PGlite.create(join(dataDir, 'db'));
  let seconds;
  try {
    seconds = await seedDatabase({
      exec: (sql) => pg.exec(sql),
      rows,
      doctorId: who.doctor.id,
      patientId: who.patient.id,
      chunk: 20_000,
      log,
    });
  } finally {
    await pg.close();
  }
  log(`  pglite: ${rows.toLocaleString('en')} rows per table seeded in ${seconds.toFixed(1)} s (incl. VACUUM ANALYZE)`);
  api = await startApi({ port, dataDir });
  return { api, who, seconds };
}

async function scalePglite({ quick, log }) {
  const { pglite: bigRows, samples } = scaleSizes(quick);
  const small = await pgliteInstance(SMALL, 4713, log);
  let big;
  try {
    big = await pgliteInstance(bigRows, 4723, log);
    log(`  pglite: measuring (${samples} samples per size, interleaved)`);
    const rows = finish('pglite', await interleaved(small, big, samples), SMALL, bigRows);
    return { rows, seed: { smallSeconds: small.seconds, bigSeconds: big.seconds } };
  } finally {
    await big?.api.stop();
    await small.api.stop();
  }
}

export const WORKLIST_P99_TARGET_MS = 50;

/**
 * The doctor's worklist at scale (PostgreSQL): a doctor with every patient of the database
 * assigned — 2,000 patients and 200,000 records (200 / 20,000 with --quick) — sequential requests.
 */
async function worklistAtScale({ quick, log }) {
  const rows = quick ? 20_000 : 200_000;
  const samples = quick ? 10 : 30;
  const db = await createDatabase('careloop_bench_scale_worklist');
  let api;
  try {
    api = await startApi({ port: await freePort(4732), dataDir: tempDir('scale-worklist'), databaseUrl: db.url });
    const who = await people(api.url);
    const client = await pgClient(db.url);
    let seconds;
    try {
      await client.query(PG_BULK_SETTINGS);
      const args = { rows, doctorId: who.doctor.id, patientId: who.patient.id, assigned: rows / 100 };
      seconds = await seedDatabase({ exec: (sql) => client.query(sql), ...args, log });
    } finally {
      await client.end();
    }
    log(`  worklist: ${rows / 100} patients, ${rows.toLocaleString('en')} records seeded in ${seconds.toFixed(1)} s`);
    await sampleGets(api.url, '/doctor/worklist', who.doctor.token, 3);
    const r = await sampleGets(api.url, '/doctor/worklist', who.doctor.token, samples);
    const stats = latencyStats(r.ms);
    const bytes = Buffer.byteLength(JSON.stringify(r.last));
    log(`  worklist: median ${stats.median.toFixed(0)} ms, p99 ${stats.p99.toFixed(0)} ms, ${Math.round(bytes / 1024)} KB`);
    return { patients: rows / 100, records: rows, samples, ...stats, bytes };
  } finally {
    await api?.stop();
    await db.drop();
  }
}

export async function runScale({ quick, log }) {
  const started = Date.now();
  const rows = [];
  const notes = [];
  const seed = {};
  let worklist;
  if (await pgAvailable()) {
    log('Scale: PostgreSQL');
    const r = await scalePostgres({ quick, log });
    rows.push(...r.rows);
    seed.postgres = r.seed;
    log('Scale: the worklist of a doctor with every patient assigned (PostgreSQL)');
    worklist = await worklistAtScale({ quick, log });
  } else {
    notes.push('PostgreSQL not reachable: PostgreSQL scale run skipped');
  }
  log('Scale: PGlite');
  const r = await scalePglite({ quick, log });
  rows.push(...r.rows);
  seed.pglite = r.seed;
  const big = scaleSizes(quick).pglite;
  notes.push(
    `PGlite seeded ${big.toLocaleString('en')} rows per table in ${r.seed.bigSeconds.toFixed(0)} s ` +
      `(${Math.round(big / r.seed.bigSeconds).toLocaleString('en')} rows/s into each table, single-threaded WASM, from the bench process ` +
      'with the api stopped, since it holds its data folder exclusively).',
  );
  return { rows, notes, seed, worklist, samples: scaleSizes(quick).samples, seconds: (Date.now() - started) / 1000 };
}
