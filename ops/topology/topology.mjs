// Three api replicas, each in its own network namespace, behind nginx, on the machine's PostgreSQL
// and Redis: the topology of docs/scale-out.md "A tested topology", built for real on this machine.
//   node ops/topology/topology.mjs up   prints the load balancer's URL; Ctrl-C tears everything down
// The test (topology.test.mjs) drives it through start / restartReplica / killReplica / stop.
// Needs root, `ip` and nginx. Uses only: namespaces cltopo1-3, bridge cltopo0, 10.231.0.0/24,
// host ports 7100-7199, and databases named careloop_topology_*.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../..');
const SERVER_JS = join(ROOT, 'api/dist/server.js');

export const BRIDGE = 'cltopo0';
export const HOST_IP = '10.231.0.1';
export const REPLICAS = [1, 2, 3].map((n) => ({
  ns: `cltopo${n}`,
  veth: `cltopo${n}h`,
  peer: `cltopo${n}n`,
  ip: `10.231.0.1${n}`,
}));
/** The port each replica listens on inside its namespace. */
export const REPLICA_PORT = 7101;
/** nginx's port on the host's loopback. */
export const LB_PORT = Number(process.env.TOPOLOGY_LB_PORT ?? 7100);
export const LB_URL = `http://127.0.0.1:${LB_PORT}`;
const PG = { host: '127.0.0.1', port: 5432 };
const REDIS = { host: '127.0.0.1', port: 6379 };

/** What is missing to build the topology here, or null. */
export function missingPrerequisites() {
  if (process.getuid?.() !== 0) return 'not root (network namespaces need it)';
  if (spawnSync('ip', ['-V']).status !== 0) return '`ip` (iproute2) is not installed';
  if (spawnSync('nginx', ['-v']).status !== 0) return 'nginx is not installed (apt-get install nginx-light)';
  if (!existsBuild()) return 'the api is not built (npx tsc -b api)';
  return null;
}

function existsBuild() {
  try {
    readFileSync(SERVER_JS);
    return true;
  } catch {
    return false;
  }
}

// One topology per machine at a time: the names, subnet and port are fixed, and start() first
// removes what a crashed run left. A second run (another checkout's `npm test`) waits its turn.
const LOCK = join(tmpdir(), 'careloop-topology.lock');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** The lock's holder: its pid, and once made its run folder and database (to clean up after it). */
function readLock() {
  try {
    return JSON.parse(readFileSync(LOCK, 'utf8'));
  } catch {
    return null; // released meanwhile, or being written
  }
}

async function lock(timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      writeFileSync(LOCK, JSON.stringify({ pid: process.pid }), { flag: 'wx' });
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    const holder = readLock();
    if (holder && !alive(holder.pid)) {
      await cleanUpAfter(holder); // a run that was killed: its nginx, database and folder remain
      rmSync(LOCK, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another topology run (pid ${holder?.pid}) holds ${LOCK}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function cleanUpAfter({ run, database }) {
  if (run) {
    try {
      // SIGTERM to the master, which stops its workers too (a killed master would leave them).
      process.kill(Number(readFileSync(join(run, 'nginx', 'nginx.pid'), 'utf8')), 'SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
    } catch {
      // no nginx was left
    }
    rmSync(run, { recursive: true, force: true });
  }
  if (database?.startsWith('careloop_topology_')) {
    await pgQuery('postgres', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  }
}

function unlock() {
  if (readLock()?.pid === process.pid) rmSync(LOCK, { force: true });
}

const ip = (...args) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
const ipQuiet = (...args) => spawnSync('ip', args, { stdio: 'ignore' });

/** Removes what a previous (crashed) run may have left: our namespaces and bridge only. */
function removeNetwork() {
  for (const r of REPLICAS) {
    // Replicas of a run that was itself killed still run in the namespace: only ours live there.
    const pids = spawnSync('ip', ['netns', 'pids', r.ns], { encoding: 'utf8' }).stdout ?? '';
    for (const pid of pids.split(/\s+/).filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    ipQuiet('netns', 'del', r.ns);
    ipQuiet('link', 'del', r.veth);
  }
  ipQuiet('link', 'del', BRIDGE);
}

function buildNetwork() {
  removeNetwork();
  ip('link', 'add', BRIDGE, 'type', 'bridge');
  ip('addr', 'add', `${HOST_IP}/24`, 'dev', BRIDGE);
  ip('link', 'set', BRIDGE, 'up');
  for (const r of REPLICAS) {
    ip('netns', 'add', r.ns);
    ip('link', 'add', r.veth, 'type', 'veth', 'peer', 'name', r.peer);
    ip('link', 'set', r.veth, 'master', BRIDGE);
    ip('link', 'set', r.veth, 'up');
    ip('link', 'set', r.peer, 'netns', r.ns);
    ip('-n', r.ns, 'addr', 'add', `${r.ip}/24`, 'dev', r.peer);
    ip('-n', r.ns, 'link', 'set', r.peer, 'up');
    ip('-n', r.ns, 'link', 'set', 'lo', 'up');
  }
}

/**
 * A TCP forwarder on the bridge address to a service that listens only on the host's loopback
 * (PostgreSQL, Redis): the replicas reach it as a remote host, the machine's config is untouched.
 */
function forward(listenPort, target) {
  const sockets = new Set();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      // A killed replica resets its connections: end the other side too, never crash.
      s.on('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(listenPort, HOST_IP, () =>
      ok({
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}

async function pgQuery(database, sql) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ ...PG, user: 'postgres', database });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

const answers = (url) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.ok,
    () => false,
  );

/**
 * Builds and starts everything; answers the handle the test drives. `log` gets one line per step.
 * On any failure during start-up, whatever was built is torn down before the error is thrown.
 */
export async function start({ log = () => {} } = {}) {
  await lock();
  const run = mkdtempSync(join(tmpdir(), 'careloop-topology-'));
  const database = `careloop_topology_${process.pid}_${Date.now()}`;
  const t = {
    run,
    database,
    url: LB_URL,
    dataDir: join(run, 'data'),
    replicas: REPLICAS.map((r) => ({ ...r, child: null, logFile: join(run, `${r.ns}.log`) })),
    forwarders: [],
    nginx: null,
    databaseCreated: false,
  };
  mkdirSync(t.dataDir);
  writeFileSync(LOCK, JSON.stringify({ pid: process.pid, run, database }));
  // One set of secrets for every replica: sessions, encrypted two-factor secrets and signed file
  // URLs made by one replica must work on the others.
  t.env = {
    PATH: process.env.PATH,
    HOST: '0.0.0.0',
    PORT: String(REPLICA_PORT),
    DATABASE_URL: `postgres://postgres@${HOST_IP}:${PG.port}/${database}`,
    REDIS_URL: `redis://${HOST_IP}:${REDIS.port}`,
    // Our own keys only: the machine's Redis is shared.
    REDIS_KEY_PREFIX: `careloop-topology:${process.pid}:`,
    TRUST_PROXY: '1',
    DATA_DIR: t.dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    FILES_SIGNING_KEY: randomBytes(32).toString('base64'),
    API_PUBLIC_URL: LB_URL,
    SHUTDOWN_GRACE_SECONDS: '5',
    LOG_LEVEL: process.env.TOPOLOGY_LOG_LEVEL ?? 'warn',
    // The lowest cost allowed: sign-ups and logins stay cheap on a shared 2-core machine.
    PASSWORD_HASH_COST: '10',
  };
  try {
    buildNetwork();
    log(`network: bridge ${BRIDGE} ${HOST_IP}/24, namespaces ${REPLICAS.map((r) => `${r.ns}=${r.ip}`).join(' ')}`);
    t.forwarders.push(await forward(PG.port, PG), await forward(REDIS.port, REDIS));
    await pgQuery('postgres', `CREATE DATABASE ${database}`);
    t.databaseCreated = true;
    log(`database ${database}; forwarders ${HOST_IP}:${PG.port} and :${REDIS.port}`);
    // Together: migrations take an advisory lock, so replicas may start at once.
    await Promise.all(t.replicas.map((_r, i) => startReplica(t, i)));
    log(`replicas ready on ${t.replicas.map((r) => `${r.ip}:${REPLICA_PORT}`).join(' ')}`);
    await startNginx(t);
    log(`nginx on ${LB_URL}`);
    return t;
  } catch (err) {
    await stop(t);
    throw err;
  }
}

/** Starts replica i in its namespace and waits until it is ready. */
export async function startReplica(t, i) {
  const r = t.replicas[i];
  const out = createWriteStream(r.logFile, { flags: 'a' });
  await new Promise((ok) => out.once('open', ok));
  // `ip netns exec` execs node in place: the child's pid is node's, signals reach the api itself.
  const child = spawn('ip', ['netns', 'exec', r.ns, process.execPath, SERVER_JS], {
    env: t.env,
    stdio: ['ignore', out, out],
  });
  r.child = child;
  r.exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const url = `http://${r.ip}:${REPLICA_PORT}/health/ready`;
  await waitFor(
    `${r.ns} ready`,
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${r.ns} exited (${child.exitCode ?? child.signalCode}): ${tail(r.logFile)}`);
      }
      return answers(url);
    },
    90_000,
  );
}

function tail(file) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

/** SIGTERM (the api drains its in-flight requests), wait for the exit, start it again, wait ready. */
export async function restartReplica(t, i) {
  const r = t.replicas[i];
  r.child.kill('SIGTERM');
  const { code, signal } = await r.exited;
  if (code !== 0) throw new Error(`${r.ns} exited with ${code ?? signal} after SIGTERM: ${tail(r.logFile)}`);
  await startReplica(t, i);
}

/** SIGKILL (no draining: in-flight requests are cut), then start it again and wait until ready. */
export async function killReplica(t, i) {
  const r = t.replicas[i];
  r.child.kill('SIGKILL');
  await r.exited;
  await startReplica(t, i);
}

async function startNginx(t) {
  const prefix = join(t.run, 'nginx');
  mkdirSync(prefix);
  const conf = readFileSync(join(HERE, 'nginx.conf'), 'utf8')
    .replaceAll('{{PREFIX}}', prefix)
    .replaceAll('{{LISTEN}}', `127.0.0.1:${LB_PORT}`)
    .replace(
      '{{UPSTREAM_SERVERS}}',
      t.replicas.map((r) => `    server ${r.ip}:${REPLICA_PORT} max_fails=1 fail_timeout=2s;`).join('\n'),
    );
  // Whatever already answers on the port would pass the readiness wait below in nginx's stead.
  if (await answers(`${LB_URL}/health/live`)) throw new Error(`something already listens on ${LB_URL}`);
  const confFile = join(prefix, 'nginx.conf');
  writeFileSync(confFile, conf);
  const out = createWriteStream(join(prefix, 'stderr.log'));
  await new Promise((ok) => out.once('open', ok));
  t.nginx = spawn('nginx', ['-p', prefix, '-c', confFile, '-g', 'daemon off;'], { stdio: ['ignore', out, out] });
  t.nginx.exited = new Promise((done) => t.nginx.once('exit', done));
  await waitFor(
    'nginx',
    async () => {
      if (t.nginx.exitCode !== null) throw new Error(`nginx exited: ${tail(join(prefix, 'stderr.log'))}`);
      return answers(`${LB_URL}/health/live`);
    },
    10_000,
  );
}

/** Tears down everything start() built (safe to call twice, and after a partial start). */
export async function stop(t) {
  if (t.nginx && t.nginx.exitCode === null) {
    t.nginx.kill('SIGQUIT');
    await Promise.race([t.nginx.exited, sleep(3000)]);
    t.nginx.kill('SIGKILL');
  }
  await Promise.all(
    t.replicas.map(async (r) => {
      if (!r.child || r.child.exitCode !== null || r.child.signalCode !== null) return;
      r.child.kill('SIGTERM');
      if ((await Promise.race([r.exited, sleep(8000)])) === undefined) r.child.kill('SIGKILL');
    }),
  );
  await Promise.all(t.forwarders.map((f) => f.close()));
  t.forwarders = [];
  removeNetwork();
  if (t.databaseCreated) {
    await pgQuery('postgres', `DROP DATABASE IF EXISTS ${t.database} WITH (FORCE)`).catch(() => undefined);
    t.databaseCreated = false;
  }
  if (!process.env.TOPOLOGY_KEEP_RUN) rmSync(t.run, { recursive: true, force: true });
  unlock();
}

/** Runs a query on the topology's database (the test's ground truth). */
export const query = (t, sql, params) =>
  import('pg').then(async ({ default: pg }) => {
    const client = new pg.Client({ ...PG, user: 'postgres', database: t.database });
    await client.connect();
    try {
      return await client.query(sql, params);
    } finally {
      await client.end();
    }
  });

// By hand: `node ops/topology/topology.mjs up`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== 'up') {
    console.error('usage: node ops/topology/topology.mjs up');
    process.exit(2);
  }
  const missing = missingPrerequisites();
  if (missing) {
    console.error(`cannot build the topology: ${missing}`);
    process.exit(1);
  }
  const t = await start({ log: (line) => console.log(line) });
  console.log(`\nCareLoop api behind nginx: ${t.url}  (logs in ${t.run}; Ctrl-C tears it down)`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log('\ntearing down…');
      stop(t).then(() => process.exit(0));
    });
  }
}
