/*
 * Tools for the fault tests (src/quality/faults.*.test.ts, FAULTS.md): real api processes
 * (src/server.ts under ts-node, transpile only, like reminders.multiprocess.test.ts), a TCP proxy
 * that can cut the api off from PostgreSQL, throwaway PostgreSQL databases, and a small HTTP
 * client with a hard timeout. Everything started here is tracked and killed by killAll().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import * as OTPAuth from 'otpauth';
import { verifyDoctor } from '../ops/verify-doctor';

export const FAULT_TESTS = process.env.FAULT_TESTS === '1';
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/**
 * `describe` for a fault suite, or `describe.skip` with the reason in its title (Jest lists
 * skipped titles): the suites run only with FAULT_TESTS=1, the PostgreSQL ones only with
 * TEST_DATABASE_URL as well.
 */
export function describeFaults(title: string, needs: { postgres: boolean }, fn: () => void): void {
  const reason = !FAULT_TESTS
    ? 'set FAULT_TESTS=1 to run the fault tests (FAULTS.md)'
    : needs.postgres && !TEST_DATABASE_URL
      ? 'needs TEST_DATABASE_URL, a PostgreSQL server (FAULTS.md)'
      : undefined;
  if (!reason) return describe(title, fn);
  // A todo keeps the reason visible in Jest's report (a wholly skipped file shows no titles).
  describe(title, () => it.todo(`skipped: ${reason}`));
}

const API_DIR = path.resolve(__dirname, '../..');
const SERVER = path.join(API_DIR, 'src/server.ts');

// Replicas must share these (SECURITY.md, FILES_AND_REMINDERS.md); fixed test values.
const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
const FILES_SIGNING_KEY = Buffer.alloc(32, 9).toString('base64');

const children = new Set<ChildProcess>();
/** Each started api's outbox (DATA_DIR/outbox), by its URL: signupVia follows the verification mail. */
const outboxOf = new Map<string, string>();
/** Each started api's database, where a test doctor's registration is verified (ops/verify-doctor.ts). */
const databaseOf = new Map<string, { dataDir: string; databaseUrl?: string }>();
const cleanups: (() => Promise<void> | void)[] = [];

export interface ApiProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  url: string;
  /** Resolves with the exit code (or the signal name) once the process is gone. */
  exited: Promise<number | string | null>;
  /** The last output of the process (stdout + stderr), for failure messages. */
  output(): string;
  alive(): boolean;
  kill(signal?: NodeJS.Signals): Promise<number | string | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Starts `src/server.ts` and waits until GET /health answers 200 (bounded). */
export async function startApi(
  env: { DATA_DIR: string; DATABASE_URL?: string } & Record<string, string | undefined>,
  readyTimeoutMs = 60_000,
): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', 'ts-node/register', SERVER], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TS_NODE_TRANSPILE_ONLY: 'true',
      TS_NODE_PROJECT: path.join(API_DIR, 'tsconfig.json'),
      TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'CommonJS', moduleResolution: 'Node10' }),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_COST: '10',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
      ENCRYPTION_KEY,
      FILES_SIGNING_KEY,
      REMINDER_POLL_SECONDS: '0.5',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  let listening = false;
  const keep = (d: Buffer) => {
    out = (out + String(d)).slice(-20_000);
    listening ||= out.includes('CareLoop api listening');
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? signal);
    }),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  outboxOf.set(`http://127.0.0.1:${port}`, path.join(env.DATA_DIR, 'outbox'));
  databaseOf.set(`http://127.0.0.1:${port}`, { dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL || undefined });
  const api: ApiProcess = {
    child,
    pid: child.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    exited,
    output: () => out,
    alive: () => !gone,
    async kill(signal = 'SIGKILL') {
      if (!gone) child.kill(signal);
      return exited;
    },
  };
  const until = Date.now() + readyTimeoutMs;
  for (;;) {
    if (gone) throw new Error(`api exited (${await exited}) before it was ready:\n${out}`);
    // server.ts prints its "listening" line once the reminder runner has started too.
    const res = await http(api.url, 'GET', '/health', { timeoutMs: 2000 }).catch(() => undefined);
    if (res?.status === 200 && listening) return api;
    if (Date.now() > until) {
      await api.kill();
      throw new Error(`api was not ready within ${readyTimeoutMs} ms:\n${out}`);
    }
    await sleep(200);
  }
}

export interface HttpResult {
  status: number;
  body: any;
  headers: Headers;
  ms: number;
}

/** One request with a hard timeout (rejects on timeout or a dropped connection). */
export async function http(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<HttpResult> {
  const started = Date.now();
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body, headers: res.headers, ms: Date.now() - started };
}

/** Like http(), but throws unless the status is the expected one. */
export async function expectHttp(
  base: string,
  method: string,
  url: string,
  status: number,
  opts: Parameters<typeof http>[3] = {},
): Promise<any> {
  const res = await http(base, method, url, opts);
  if (res.status !== status)
    throw new Error(`${method} ${url}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface Party {
  id: string;
  email: string;
  token: string;
}

let seq = 0;
/** A password signup on a started api, verified by default through the link mailed to its outbox. */
export async function signupVia(
  base: string,
  role: 'doctor' | 'patient',
  name = `Fault ${role}`,
  { verified = true }: { verified?: boolean } = {},
): Promise<Party> {
  seq += 1;
  const email = `fault.${role}.${process.pid}.${seq}.${randomBytes(3).toString('hex')}@example.com`;
  const registration = role === 'doctor' ? { registration: { register: 'GMC', number: '1234567' } } : {};
  const { token } = await expectHttp(base, 'POST', `/${role}/signup`, 201, {
    body: { name, email, password: 'correct horse battery', ...registration },
  });
  if (verified) {
    const link = await verificationLinkIn(base, role, email);
    await expectHttp(base, 'POST', `/${role}/verify-email/${link}`, 200, { body: { password: 'correct horse battery' } });
    // The doctor's registration too, as the operator command does (on the running api's database).
    if (role === 'doctor') {
      const database = databaseOf.get(base);
      if (!database) throw new Error(`${base} was not started by startApi`);
      if ((await verifyDoctor(database, email)).outcome === 'unknown') throw new Error(`no doctor ${email} to verify`);
    }
  }
  // Doctors must have two-factor on (REQUIRE_MFA_FOR's default) before they reach any patient data.
  if (role === 'doctor') await enrolVia(base, role, token);
  const me = await expectHttp(base, 'GET', `/${role}/me`, 200, { token });
  return { id: me[role]._id, email, token };
}

/** Turns two-factor on through HTTP with a code of the wall clock's step (the next one if the step turned meanwhile). */
async function enrolVia(base: string, role: 'doctor' | 'patient', token: string): Promise<void> {
  const { secret } = await expectHttp(base, 'GET', `/${role}/qrCode`, 200, { token });
  for (let tries = 0; tries < 2; tries += 1) {
    const { verify } = await expectHttp(base, 'POST', `/${role}/verifyqrCode`, 200, {
      token,
      body: {
        code: OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }),
      },
    });
    if (verify === true) return;
  }
  throw new Error('faults-kit: the two-factor set-up code was refused');
}

/** The token of the verification mail to `email` in that api's outbox; the mail goes out just after the answer. */
async function verificationLinkIn(base: string, role: string, email: string, timeoutMs = 15_000): Promise<string> {
  const dir = outboxOf.get(base);
  if (!dir) throw new Error(`${base} was not started by startApi: sign up with { verified: false }`);
  const pattern = new RegExp(`/${role}/verify-email/([A-Za-z0-9_-]+)`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
    for (const f of files) {
      // The address and the link are plain ASCII in these mails; quoted-printable soft breaks are undone.
      const raw = fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '');
      const found = raw.includes(`To: ${email}`) && pattern.exec(raw);
      if (found) return found[1];
    }
    if (Date.now() > deadline) throw new Error(`no verification mail to ${email} in ${dir}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Doctor asks, patient accepts: the pair is assigned, all through HTTP (on one or two replicas). */
export async function connectVia(doctorApi: string, patientApi: string, doctor: Party, patient: Party): Promise<void> {
  await expectHttp(doctorApi, 'POST', '/doctor/requestPatient', 201, { token: doctor.token, body: { email: patient.email } });
  const received = await expectHttp(patientApi, 'GET', '/patient/receivedRequests', 200, { token: patient.token });
  if (received.length !== 1) throw new Error(`expected one pending request, got ${JSON.stringify(received)}`);
  await expectHttp(patientApi, 'PATCH', `/patient/responseRequest/${received[0]._id}`, 200, {
    token: patient.token,
    body: { action: 'accept' },
  });
}

/** A fresh database on TEST_DATABASE_URL's server; dropped by killAll(). */
export async function createDatabase(): Promise<string> {
  const admin = TEST_DATABASE_URL!;
  const name = `careloop_fault_${randomBytes(6).toString('hex')}`;
  await withClient(admin, (c) => c.query(`create database ${name}`));
  cleanups.push(() => withClient(admin, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `careloop-${prefix}-`));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** SIGKILLs every api process still running, then drops the databases and removes the temp dirs. */
export async function killAll(): Promise<void> {
  const waits = [...children].map(
    (c) =>
      new Promise<void>((resolve) => {
        if (c.exitCode !== null || c.signalCode !== null) return resolve();
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      }),
  );
  await Promise.all(waits);
  for (const fn of cleanups.splice(0).reverse()) {
    try {
      await fn();
    } catch (err) {
      console.error('fault test cleanup failed', err);
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Runs `task(i)` for i in [0, count) with at most `inFlight` at once; stops starting new ones once `stop()` is true. */
export async function pool<T>(
  count: number,
  inFlight: number,
  task: (i: number) => Promise<T>,
  stop: () => boolean = () => false,
): Promise<{ started: number; results: PromiseSettledResult<T>[] }> {
  let next = 0;
  const results: PromiseSettledResult<T>[] = [];
  const lane = async () => {
    while (next < count && !stop()) {
      const i = next++;
      try {
        results[i] = { status: 'fulfilled', value: await task(i) };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { started: next, results };
}

export type ProxyMode = 'up' | 'refuse' | 'blackhole';

/**
 * A TCP proxy on 127.0.0.1 (random port) in front of PostgreSQL. 'up' forwards; 'refuse' cuts every
 * open connection and closes the listening socket (new connects get ECONNREFUSED); 'blackhole'
 * cuts every open connection and accepts new ones but never answers (a dead network path).
 */
export class PgProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  mode: ProxyMode = 'up';
  port = 0;

  constructor(private readonly upstream: { host: string; port: number }) {}

  static forUrl(url: string): PgProxy {
    const u = new URL(url);
    return new PgProxy({ host: u.hostname || '127.0.0.1', port: Number(u.port || 5432) });
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  async start(): Promise<void> {
    await this.listen(0);
    cleanups.push(() => this.close());
  }

  private listen(port: number): Promise<void> {
    const server = net.createServer((client) => this.accept(client));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  private accept(client: net.Socket): void {
    this.track(client);
    if (this.mode !== 'up') return; // blackhole: hold it open, say nothing
    const upstream = net.connect(this.upstream.port, this.upstream.host);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', cut);
    upstream.on('close', cut);
  }

  private track(s: net.Socket): void {
    this.sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => this.sockets.delete(s));
  }

  /** Number of sockets currently open through the proxy (both sides). */
  get openSockets(): number {
    return this.sockets.size;
  }

  private cutAll(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  async outage(mode: 'refuse' | 'blackhole'): Promise<void> {
    this.mode = mode;
    this.cutAll();
    if (mode === 'refuse' && this.server) {
      const s = this.server;
      this.server = undefined;
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
    if (mode === 'blackhole' && !this.server) await this.listen(this.port);
  }

  async recover(): Promise<void> {
    this.mode = 'up';
    this.cutAll(); // blackholed connects: dropped, the client retries on a fresh one
    if (!this.server) await this.listen(this.port);
  }

  async close(): Promise<void> {
    this.mode = 'refuse';
    this.cutAll();
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}
