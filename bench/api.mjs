// Section 1 — API throughput and latency (autocannon on loopback) against the BUILT api, on PGlite
// and on PostgreSQL, next to a bare Fastify route returning a constant (the machine's ceiling).
import autocannon from 'autocannon';
import { join } from 'node:path';
import { cpuPerRequest, cpuSnapshot, cpuText, cpuUsed } from './lib/cpu.mjs';
import {
  connect,
  createPrescription,
  createRecord,
  outboxCount,
  PRESCRIPTION_BODY,
  scheduleReminders,
  signup,
} from './lib/http.mjs';
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

async function cannon({ url, connections, duration, headers = {}, method = 'GET', body, cpuOf }) {
  // cpuOf: the server process (and whether PostgreSQL serves it) whose CPU time this run is charged
  const before = cpuOf && cpuSnapshot(cpuOf.pid, cpuOf.postgres);
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
    cpu: cpuOf && cpuUsed(before, cpuSnapshot(cpuOf.pid, cpuOf.postgres)),
  };
}

// The targets: PostgreSQL at 10 connections (ratio to the endpoint's ceiling, p99), PGlite at 100
// (no errors or timeouts, p99 of GET /patient/me).
export const LEVELS = { pglite: 100, postgres: 10 };
// A list and a write are judged against the same work done by the thinnest server
// (same-work-server.mjs), GET /patient/me against the one-query ceiling.
export const TARGETS = {
  postgres: { me: { ratio: 0.5, p99: 10 }, records: { ratio: 0.8 }, prescribe: { ratio: 0.8 } },
  pglite: {
    me: { p99: 100, clean: true },
    records: { clean: true },
    prescribe: { clean: true },
    // The reminder sweep runs in the api's own process on the one embedded connection: it must not
    // hold requests up.
    meDuringSweep: { p99: 100, clean: true },
  },
};

/** Reminders falling due at once for the sweep row: ~20 sweeps of 50, through every round. */
const DUE_REMINDERS = 1000;

function levels(quick) {
  // A B A B: `rounds` pairs of ceiling-then-endpoint runs of `duration` s after a warm-up of each.
  return { duration: quick ? 2 : 5, warmup: quick ? 1 : 2, rounds: quick ? 2 : 4 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Sums the rounds of one side: req/s over the whole time, median and worst of the rounds' p50/p99. */
function combine(runs) {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const seconds = runs.reduce((n, r) => n + r.duration, 0);
  return {
    connections: runs[0].connections,
    rounds: runs.length,
    rps: requests / seconds,
    roundRps: runs.map((r) => r.rps),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    p99Worst: Math.max(...runs.map((r) => r.p99)),
    requests,
    errors: runs.reduce((n, r) => n + r.errors, 0),
    timeouts: runs.reduce((n, r) => n + r.timeouts, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    cpu: cpuPerRequest(runs),
  };
}

async function measureBare({ quick, log }) {
  const { duration, warmup } = levels(quick);
  const port = await freePort(4719);
  const proc = spawnNode(join(BENCH, 'bare-server.mjs'), [String(port)], { name: 'bare-fastify' });
  try {
    await waitHealthy(proc, `http://${HOST}:${port}/health`, 20_000);
    const url = `http://${HOST}:${port}/`;
    await cannon({ url, connections: 10, duration: warmup });
    const runs = [];
    for (const c of [10, 100]) {
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

/**
 * Sends the scenario's request to CareLoop and to the same-work server and compares the answers
 * (ids and times aside): a ceiling that answered less, or something else, would flatter it.
 */
async function sameAnswer(s, baseline) {
  const call = async (url) => {
    const res = await fetch(url, { method: s.method ?? 'GET', headers: s.headers, body: s.body });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${s.label} on ${url} answered ${res.status}: ${text.slice(0, 200)}`);
    return { status: res.status, text, json: JSON.parse(text) };
  };
  const ours = await call(s.url);
  const theirs = await call(baseline.url);
  const volatile = new Set(['_id', 'createdAt', 'computedAt']);
  const strip = (v) =>
    Array.isArray(v)
      ? v.map(strip)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([k]) => !volatile.has(k))
              .map(([k, x]) => [k, strip(x)]),
          )
        : v;
  const differs = firstDifference(strip(ours.json), strip(theirs.json));
  if (ours.status !== theirs.status || differs)
    throw new Error(`${s.label}: the same-work server's answer differs from CareLoop's (${differs ?? 'status'})`);
  return `same answer as CareLoop's (${ours.text.length.toLocaleString('en')} bytes; same-work ${theirs.text.length.toLocaleString('en')})`;
}

/** The path of the first difference between two JSON values, or undefined. */
function firstDifference(a, b, path = '$') {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) return path;
  if (a && typeof a === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return a === b ? undefined : path;
}

async function measureBackend({ backend, quick, log }) {
  const { duration, warmup, rounds } = levels(quick);
  const connections = LEVELS[backend];
  const port = await freePort(backend === 'pglite' ? 4710 : 4711);
  let db;
  let api;
  let ceiling;
  let sameWork;
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
    const ceilingPort = await freePort(4719);
    ceiling = spawnNode(
      join(BENCH, 'ceiling-server.mjs'),
      [String(ceilingPort), ...(backend === 'postgres' ? ['--pg', databaseUrl] : ['--pglite', tempDir('ceiling-pglite')])],
      { name: `ceiling-${backend}` },
    );
    await waitHealthy(ceiling, `http://${HOST}:${ceilingPort}/health`, 30_000);
    // PostgreSQL: the patient the bench signed up, by primary key; PGlite: the ceiling's own row.
    const ceilingId = backend === 'postgres' ? patients[0].id : '00000000-0000-4000-8000-000000000001';
    const postgres = backend === 'postgres';
    const ceilingRun = {
      url: `http://${HOST}:${ceilingPort}/patients/${ceilingId}`,
      cpuOf: { pid: ceiling.child.pid, postgres },
    };
    const apiCpu = { pid: api.child.pid, postgres };
    let sameWorkBase;
    if (postgres) {
      const sameWorkPort = await freePort(4720);
      sameWork = spawnNode(
        join(BENCH, 'same-work-server.mjs'),
        [String(sameWorkPort), '--pg', databaseUrl, '--outbox', tempDir('same-work-outbox')],
        { name: 'same-work-postgres' },
      );
      sameWorkBase = `http://${HOST}:${sameWorkPort}`;
      await waitHealthy(sameWork, `${sameWorkBase}/health`, 30_000);
    }

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
        sameWork: '/medicalhistories?page=1&limit=10',
      },
      {
        id: 'prescribe',
        label: 'POST /prescription/{patientId}',
        read: false,
        url: `${api.url}/prescription/${patients[0].id}`,
        method: 'POST',
        body: JSON.stringify(PRESCRIPTION_BODY),
        headers: { authorization: `Bearer ${doctor.token}`, 'content-type': 'application/json' },
        sameWork: `/prescription/${patients[0].id}`,
      },
    ];
    if (!postgres)
      scenarios.push({
        ...scenarios[0],
        id: 'meDuringSweep',
        label: `GET /patient/me while ${DUE_REMINDERS.toLocaleString('en')} reminders fall due`,
        async prepare() {
          const before = outboxCount(api.url);
          const due = new Date(Date.now() + 2000);
          await scheduleReminders(api.url, doctor, patients, DUE_REMINDERS, due);
          // Measured only once the sweeps are sending (a minute at most: then the row would measure nothing).
          const until = Date.now() + 60_000;
          while (outboxCount(api.url) === before) {
            if (Date.now() > until) throw new Error('no reminder e-mail within a minute of falling due');
            await sleep(100);
          }
          return () => `${outboxCount(api.url) - before} of them sent by the end of its rounds`;
        },
      });
    const out = [];
    let oneQuery;
    for (const s of scenarios) {
      const sent = await s.prepare?.();
      // A: the same-work server where the endpoint has one (its answer checked against ours first),
      // else the one-query ceiling.
      const baseline =
        s.sameWork && sameWork
          ? { ...s, url: `${sameWorkBase}${s.sameWork}`, cpuOf: { pid: sameWork.child.pid, postgres } }
          : ceilingRun;
      const parity = baseline === ceilingRun ? undefined : await sameAnswer(s, baseline);
      if (parity) log(`    ${s.label}: ${parity}`);
      await cannon({ ...baseline, connections, duration: warmup });
      await cannon({ ...s, connections, duration: warmup });
      const run = { ...s, cpuOf: apiCpu };
      const a = [];
      const b = [];
      for (let i = 0; i < rounds; i++) {
        a.push(await cannon({ ...baseline, connections, duration }));
        b.push(await cannon({ ...run, connections, duration }));
      }
      const ceil = combine(a);
      const r = combine(b);
      const ratio = r.rps / ceil.rps;
      const kind = baseline === ceilingRun ? 'one-query' : 'same-work';
      if (kind === 'one-query') oneQuery ??= ceil;
      log(
        `  ${backend} ${s.label} c=${connections}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
          `errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx}; ${kind} ceiling ${ceil.rps.toFixed(0)} req/s ` +
          `(p99 ${ceil.p99} ms, errors ${ceil.errors + ceil.timeouts}) → ${ratio.toFixed(2)}` +
          (r.cpu ? `; CPU per request ${cpuText(r.cpu, 'api')}, ceiling ${cpuText(ceil.cpu, 'node')}` : ''),
      );
      if (sent) log(`    reminders: ${sent()}`);
      out.push({
        backend,
        endpoint: s.id,
        label: s.label,
        read: s.read,
        ...r,
        ceiling: { ...ceil, kind },
        ratio,
        // the one-query ceiling stays beside a same-work ratio as a figure
        oneQueryRatio: kind === 'same-work' && oneQuery ? r.rps / oneQuery.rps : undefined,
        parity,
        note: sent?.(),
      });
      await sleep(500);
    }
    return out;
  } finally {
    await ceiling?.stop();
    await sameWork?.stop();
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
  return { bare, rows, notes, seconds: (Date.now() - started) / 1000, ...levels(quick) };
}
