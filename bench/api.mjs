// Section 1 — API throughput and latency (autocannon on loopback) against the BUILT api, on PGlite
// and on PostgreSQL, next to a bare Fastify route returning a constant (the machine's ceiling).
import autocannon from 'autocannon';
import { join } from 'node:path';
import { connect, createPrescription, createRecord, PRESCRIPTION_BODY, signup } from './lib/http.mjs';
import {
  BENCH,
  createDatabase,
  freePort,
  HOST,
  pgAvailable,
  sleep,
  spawnNode,
  startApi,
  tempDir,
  waitHealthy,
} from './lib/proc.mjs';

export const API_P99_TARGET_MS = 15;

async function cannon({ url, connections, duration, headers = {}, method = 'GET', body }) {
  const result = await autocannon({
    url,
    connections,
    duration,
    method,
    headers,
    body,
    // one request in flight per connection: latency is what a client sees
    pipelining: 1,
    timeout: 10,
  });
  return {
    connections,
    duration,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

function levels(quick) {
  return { duration: quick ? 3 : 10, warmup: quick ? 1 : 2, connections: [10, 100] };
}

async function measureBare({ quick, log }) {
  const { duration, warmup, connections } = levels(quick);
  const port = await freePort(4719);
  const proc = spawnNode(join(BENCH, 'bare-server.mjs'), [String(port)], { name: 'bare-fastify' });
  try {
    await waitHealthy(proc, `http://${HOST}:${port}/health`, 20_000);
    const url = `http://${HOST}:${port}/`;
    await cannon({ url, connections: 10, duration: warmup });
    const runs = [];
    for (const c of connections) {
      const r = await cannon({ url, connections: c, duration });
      log(`  bare fastify  c=${c}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
      runs.push(r);
    }
    return runs;
  } finally {
    await proc.stop();
  }
}

/** Users, the assignment and records, all through the real api. */
async function setUp(base) {
  const stamp = Date.now().toString(36);
  const doctor = await signup(base, 'doctor', `bench-doctor-${stamp}@bench.example`, 'Dr Bench Marker', {
    yearsOfExperience: 12,
    specialization: ['General practice'],
  });
  const patients = [];
  for (let i = 0; i < 3; i++) {
    const p = await signup(base, 'patient', `bench-patient-${i}-${stamp}@bench.example`, `Bench Patient ${i}`, {
      DOB: '1980-05-17',
      gender: 'Female',
      occupation: 'Teacher',
      address: { street: '1 High St', city: 'Leeds', state: 'West Yorkshire', pinCode: 'LS1 1AA' },
    });
    await connect(base, doctor, p);
    patients.push(p);
  }
  for (const p of patients) {
    for (let i = 0; i < 10; i++) await createRecord(base, doctor, p.id, i);
    for (let i = 0; i < 5; i++) await createPrescription(base, doctor, p.id);
  }
  return { doctor, patients };
}

async function measureBackend({ backend, quick, log }) {
  const { duration, warmup, connections } = levels(quick);
  const port = await freePort(backend === 'pglite' ? 4710 : 4711);
  let db;
  let api;
  try {
    let databaseUrl;
    if (backend === 'postgres') {
      db = await createDatabase('careloop_bench_api');
      databaseUrl = db.url;
    }
    const t0 = Date.now();
    api = await startApi({ port, dataDir: tempDir(`api-${backend}`), databaseUrl });
    const { doctor, patients } = await setUp(api.url);
    log(
      `  ${backend}: api up and seeded through HTTP (1 doctor, 3 assigned patients, 30 records, 15 prescriptions) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const scenarios = [
      {
        id: 'me',
        label: 'GET /patient/me',
        read: true,
        url: `${api.url}/patient/me`,
        headers: { authorization: `Bearer ${patients[0].token}` },
      },
      {
        id: 'records',
        label: 'GET /medicalhistories?page=1&limit=10 (doctor, 3 patients)',
        read: true,
        url: `${api.url}/medicalhistories?page=1&limit=10`,
        headers: { authorization: `Bearer ${doctor.token}` },
      },
      {
        id: 'prescribe',
        label: 'POST /prescription/{patientId}',
        read: false,
        url: `${api.url}/prescription/${patients[0].id}`,
        method: 'POST',
        body: JSON.stringify(PRESCRIPTION_BODY),
        headers: { authorization: `Bearer ${doctor.token}`, 'content-type': 'application/json' },
      },
    ];
    const out = [];
    for (const s of scenarios) {
      await cannon({ ...s, connections: 10, duration: warmup });
      for (const c of connections) {
        const r = await cannon({ ...s, connections: c, duration });
        log(
          `  ${backend} ${s.label} c=${c}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
            `errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx}`,
        );
        out.push({ backend, endpoint: s.id, label: s.label, read: s.read, ...r });
        await sleep(500);
      }
    }
    return out;
  } finally {
    await api?.stop();
    await db?.drop();
  }
}

export async function runApi({ quick, log }) {
  const started = Date.now();
  log('API: bare Fastify ceiling');
  const bare = await measureBare({ quick, log });
  const rows = [];
  const notes = [];
  for (const backend of ['pglite', 'postgres']) {
    if (backend === 'postgres' && !(await pgAvailable())) {
      notes.push('PostgreSQL not reachable: PostgreSQL API run skipped');
      continue;
    }
    log(`API: ${backend}`);
    rows.push(...(await measureBackend({ backend, quick, log })));
  }
  return { bare, rows, notes, seconds: (Date.now() - started) / 1000, durationPerRun: levels(quick).duration };
}
