// Three api replicas behind nginx under steady light traffic, through a rolling restart (SIGTERM,
// one by one) and a SIGKILL: no read fails, no acknowledged write is lost, no write is applied twice.
// `npm run test:ops` (root, `ip`, nginx; skipped without them unless CI=true). docs/scale-out.md.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import test from 'node:test';
import { HOST_IP, killReplica, missingPrerequisites, query, restartReplica, start, stop } from './topology.mjs';

const READS_PER_SECOND = 20;
const WRITES_PER_SECOND = 5;
const BURST = 9;
const PASSWORD = 'correct horse battery';

const missing = missingPrerequisites();
if (missing) {
  if (process.env.CI === 'true') throw new Error(`topology test cannot run on CI: ${missing}`);
  console.log(`# topology test skipped: ${missing}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function call(url, { method = 'GET', token, body, headers = {} } = {}) {
  const res = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(35_000),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, upstream: res.headers.get('x-upstream') ?? '', json, text };
}

/** Steady traffic until stopped: every request's outcome, with the phase it was sent in. */
function traffic(t, patient, runId) {
  const results = { reads: [], writes: [] };
  const pending = new Set();
  let phase = 'steady';
  let n = 0;
  const track = (p) => {
    pending.add(p);
    p.finally(() => pending.delete(p));
  };
  const paths = ['/patient/me', `/allergies/${patient.id}`];
  const read = () => {
    const sentIn = phase;
    const path = paths[n++ % paths.length];
    track(
      call(`${t.url}${path}`, { token: patient.token }).then(
        (r) => results.reads.push({ path, sentIn, status: r.status, upstream: r.upstream }),
        (err) => results.reads.push({ path, sentIn, status: 0, error: err.message }),
      ),
    );
  };
  let w = 0;
  const write = () => {
    const sentIn = phase;
    // Unique per write: the database is asked for each marker afterwards.
    const marker = `topology-${runId}-${w++}`;
    track(
      call(`${t.url}/patient/allergies`, {
        method: 'POST',
        token: patient.token,
        body: { substance: { text: marker }, type: 'allergy', category: 'food', reactions: [] },
      }).then(
        (r) => results.writes.push({ marker, sentIn, status: r.status, id: r.json?._id, upstream: r.upstream }),
        (err) => results.writes.push({ marker, sentIn, status: 0, error: err.message }),
      ),
    );
  };
  const readTimer = setInterval(read, 1000 / READS_PER_SECOND);
  const writeTimer = setInterval(write, 1000 / WRITES_PER_SECOND);
  return {
    results,
    /** k reads and k writes at once, so some are in flight on every replica. */
    burst(k) {
      for (let i = 0; i < k; i++) {
        read();
        write();
      }
    },
    setPhase: (p) => {
      phase = p;
    },
    async stop() {
      clearInterval(readTimer);
      clearInterval(writeTimer);
      while (pending.size) await Promise.allSettled([...pending]);
      return results;
    },
  };
}

test(
  'three replicas behind nginx: rolling restart and SIGKILL lose no read and no write',
  { skip: missing ?? false, timeout: 240_000 },
  async () => {
    const began = Date.now();
    const t = await start({ log: (line) => console.log(`# ${line}`) });
    try {
      const upAfter = Date.now() - began;
      const runId = randomBytes(4).toString('hex');
      const email = `topology-${runId}@example.com`;

      const signup = await call(`${t.url}/patient/signup`, {
        method: 'POST',
        body: { name: 'Topology Patient', email, password: PASSWORD },
      });
      assert.equal(signup.status, 201, signup.text);
      // A forged X-Forwarded-For entry: with one trusted hop the api must take nginx's view of the
      // client (this machine's loopback), neither the forged address nor nginx's own (the bridge).
      const login = await call(`${t.url}/patient/login`, {
        method: 'POST',
        body: { email, password: PASSWORD },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      assert.equal(login.status, 200, login.text);
      const token = login.json.token;
      const me = await call(`${t.url}/patient/me`, { token });
      assert.equal(me.status, 200, me.text);
      const patient = { token, id: me.json.patient._id };
      const sessions = await call(`${t.url}/patient/sessions`, { token });
      const current = sessions.json.sessions.find((s) => s.current);
      assert.equal(current.ip, '127.0.0.1', `client address seen by the api: ${current.ip} (nginx is ${HOST_IP})`);

      const load = traffic(t, patient, runId);
      const timings = {};
      const timed = async (name, fn) => {
        load.setPhase(name);
        const at = Date.now();
        await fn();
        timings[name] = Date.now() - at;
      };
      await timed('warm-up', () => sleep(2000));
      await timed('rolling restart', async () => {
        for (const i of [0, 1, 2]) await restartReplica(t, i);
      });
      await timed('between', () => sleep(1000));
      await timed('SIGKILL + restart', async () => {
        // Steady light traffic is rarely in flight at the instant of a kill: a short burst first, so
        // the kill cuts requests mid-way (nginx retries the reads; the cut writes are reported).
        load.burst(BURST);
        await sleep(15);
        await killReplica(t, 1);
      });
      await timed('cool-down', () => sleep(2000));
      const { reads, writes } = await load.stop();

      // Ground truth: every marker of this run in the database, with how often it is there.
      const rows = (
        await query(
          t,
          `select substance_text as marker, count(*)::int as n, min(id::text) as id
           from allergy_intolerances where patient_id = $1 and substance_text like $2 group by substance_text`,
          [patient.id, `topology-${runId}-%`],
        )
      ).rows;
      const inDb = new Map(rows.map((r) => [r.marker, r]));

      const failedReads = reads.filter((r) => r.status < 200 || r.status > 299);
      const ok = writes.filter((w) => w.status >= 200 && w.status <= 299);
      const notOk = writes.filter((w) => !(w.status >= 200 && w.status <= 299));
      const lost = ok.filter((w) => inDb.get(w.marker)?.n !== 1 || inDb.get(w.marker).id !== w.id);
      const twice = rows.filter((r) => r.n > 1);
      const unknown = rows.filter((r) => !writes.some((w) => w.marker === r.marker));
      const ambiguousApplied = notOk.filter((w) => inDb.has(w.marker)).length;
      const retriedReads = reads.filter((r) => r.upstream?.includes(',')).length;
      const replicasServing = new Set(reads.flatMap((r) => (r.upstream ?? '').split(/,\s*/).filter(Boolean))).size;

      console.log(
        [
          `# topology summary (run ${runId})`,
          `#   up in ${upAfter} ms; ${Object.entries(timings)
            .map(([k, v]) => `${k} ${v} ms`)
            .join(', ')}; total ${Date.now() - began} ms`,
          `#   reads: ${reads.length} sent, ${reads.length - failedReads.length} 2xx, ${failedReads.length} failed, ${retriedReads} retried by nginx on another replica, ${replicasServing} replica addresses seen`,
          `#   writes: ${writes.length} sent, ${ok.length} 2xx (each in the database once: ${ok.length - lost.length}), ` +
            `${notOk.length} not 2xx [${notOk.map((w) => `${w.status || w.error} in ${w.sentIn}`).join('; ')}] of which ${ambiguousApplied} applied, ` +
            `${twice.length} duplicated`,
        ].join('\n'),
      );

      assert.ok(reads.length >= 100 && writes.length >= 25, 'the traffic ran');
      assert.deepEqual(failedReads.slice(0, 5), [], `${failedReads.length} reads failed`);
      assert.deepEqual(lost.slice(0, 5), [], `${lost.length} acknowledged writes not in the database exactly once`);
      assert.deepEqual(twice, [], 'a write applied twice');
      assert.deepEqual(unknown, [], 'rows nobody wrote');
      // A write may fail only as the SIGKILL cuts it (nginx answers 502; never re-sent): the rolling
      // restart drains, so none of its writes may fail.
      assert.deepEqual(
        notOk.filter((w) => w.sentIn !== 'SIGKILL + restart' || ![502, 504].includes(w.status)),
        [],
        'writes failed outside the SIGKILL, or not as a gateway error',
      );
      // The restarts really moved traffic: every replica answered, and nginx had to retry some reads.
      assert.equal(replicasServing, 3, 'all three replicas served reads');
    } finally {
      await stop(t);
    }
  },
);
