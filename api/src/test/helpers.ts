import { setTimeout as wait } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Client } from 'pg';
import { buildApp } from '../app';
import * as OTPAuth from 'otpauth';
import { ManualClock } from '../adapters/clock';
import { createMailer, outboxDir, type Mailer } from '../adapters/mail';
import { createStorage, type FileStorage } from '../adapters/storage';
import { createSecretBox, loadEncryptionKey } from '../lib/secret-box';
import { openDatabase, selectRows, type DbAdapter } from '../adapters/db';
import { loadConfig, type Config } from '../config';
import { copyPgliteTemplate, postgresTemplate } from './template-db';
import { verifyDoctorRegistration } from '../modules/profiles/registration';
import { OPERATOR } from '../ops/verify-doctor';
import { captureFiles, LOG_DIR_ENV, phiOf } from './phi-in-logs';

export type Backend = 'pglite' | 'postgres';

/** Every db-touching suite runs on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set. */
export const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDb {
  adapter: DbAdapter;
  /** Opens another adapter on the same database (a second replica, or a restart). */
  reopen(): Promise<DbAdapter>;
  dataDir?: string;
  cleanup(): Promise<void>;
}

/**
 * A fresh, migrated database of its own: a temp dir for PGlite, a new database on the server for
 * PostgreSQL, each a copy of a template migrated once per migrations folder (test/template-db.ts).
 * `{ migrate: false }` gives an empty database, for tests of the migrations themselves.
 */
export async function createTestDb(backend: Backend, { migrate = true } = {}): Promise<TestDb> {
  if (backend === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-api-test-'));
    await copyPgliteTemplate(dataDir, { migrated: migrate });
    const adapter = await openDatabase({ dataDir });
    return {
      adapter,
      dataDir,
      reopen: () => openDatabase({ dataDir }),
      async cleanup() {
        await adapter.close();
        await fs.promises.rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  // One database per test file, so parallel files never see each other's rows.
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `careloop_test_${randomBytes(6).toString('hex')}`;
  const template = migrate ? ` template ${await postgresTemplate(adminUrl)}` : '';
  await withClient(adminUrl, (c) => c.query(`create database ${name}${template}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const adapter = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  const opened: DbAdapter[] = [adapter];
  return {
    adapter,
    async reopen() {
      const a = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
      opened.push(a);
      return a;
    },
    async cleanup() {
      for (const a of opened) await a.close();
      await withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Set while the suite's log output is checked for patient data (test/phi-global-setup.ts). */
const capture = process.env[LOG_DIR_ENV] ? captureFiles(process.env[LOG_DIR_ENV]) : undefined;

/**
 * Low scrypt cost and no logs: the suite stays fast and quiet. Sessions go idle only after 12 hours
 * (SESSION_MAX_HOURS still applies): many suites move the test clock by the hour between one
 * account's requests; the idle limit's own tests (auth/sessions.test.ts) pass SESSION_IDLE_MINUTES=15.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    PASSWORD_HASH_COST: '10',
    SESSION_IDLE_MINUTES: '720',
    // Logs at the shipped level while the suite's logs go through the PHI detector (phi-in-logs.ts).
    LOG_LEVEL: capture ? 'info' : 'silent',
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    DATA_DIR: os.tmpdir(),
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  clock: ManualClock;
  db: DbAdapter;
  config: Config;
  /** This app's own temporary DATA_DIR (outbox, encryption key file); removed on close. */
  dataDir: string;
  mailer: Mailer;
}

/**
 * Each test app's clock and config (signup enrols two-factor where REQUIRE_MFA_FOR asks for it) and
 * database (signup verifies a doctor's registration there, as the operator command does).
 */
const appClocks = new WeakMap<FastifyInstance, { clock: ManualClock; config: Config; db: DbAdapter }>();

/** Each test app's DATA_DIR, so `signup(app, …)` finds the verification mail in its outbox. */
const dataDirs = new WeakMap<FastifyInstance, string>();
function dataDirOf(app: FastifyInstance): string {
  const dir = dataDirs.get(app);
  if (!dir) throw new Error('not an app of createTestApp: sign up with { verified: false }');
  return dir;
}

/**
 * Removes a test app's data folder. A file may still land in it while it goes (a mail written by a
 * task finishing as the app closes: ENOTEMPTY), so it is tried again a while; a temporary folder
 * that still cannot go is left to the OS, never a test failure.
 */
async function removeTestDir(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw err;
      await wait(50); // node:timers: real even while a test fakes the global timers
    }
  }
}

export async function createTestApp(
  db: DbAdapter,
  env: Record<string, string> = {},
  /** Adds routes before the app is sealed (e.g. one that throws). */
  extend?: (app: FastifyInstance) => void,
  onLogLine?: (line: string) => void,
  overrides: { mailer?: Mailer; fetch?: typeof globalThis.fetch; storage?: FileStorage } = {},
): Promise<TestApp> {
  const clock = new ManualClock(new Date());
  const ownDir = env.DATA_DIR ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-api-data-'));
  const config = testConfig({ ...(ownDir ? { DATA_DIR: ownDir } : {}), ...env });
  // The real adapters: .eml files in <dataDir>/outbox, a key file made on first use.
  const mailer = overrides.mailer ?? createMailer(config);
  const secretBox = createSecretBox(loadEncryptionKey(config).key);
  // Local disk under DATA_DIR/files (a key file made on first use), or S3 when S3_* are given.
  const storage = overrides.storage ?? createStorage(config, clock).storage;
  const app = await buildApp(
    { db, clock, config, mailer, secretBox, storage, ...(overrides.fetch ? { fetch: overrides.fetch } : {}) },
    onLogLine || capture
      ? {
          logStream: {
            write: (line) => {
              onLogLine?.(line);
              capture?.log(line);
            },
          },
        }
      : {},
  );
  if (capture) app.addHook('preValidation', async (request) => capture.note([...phiOf(request.body), ...phiOf(request.query)]));
  if (ownDir) app.addHook('onClose', () => removeTestDir(ownDir));
  dataDirs.set(app, config.dataDir);
  appClocks.set(app, { clock, config, db });
  extend?.(app);
  await app.ready();
  return { app, clock, db, config, dataDir: config.dataDir, mailer };
}

export interface OutboxMessage {
  file: string;
  headers: Record<string, string>;
  /** The body, transfer-decoded (quoted-printable or base64). */
  text: string;
}

/** The messages in the app's outbox, oldest first. */
export async function readOutbox(t: TestApp): Promise<OutboxMessage[]> {
  await t.app.backgroundTasks.idle(); // mail goes out after the answer
  const dir = outboxDir(t.dataDir);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((file) => ({ file, ...parseEml(fs.readFileSync(path.join(dir, file), 'utf8')) }));
}

/** Enough RFC 822 / MIME for a single-part text message as nodemailer writes it. */
export function parseEml(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\n\n');
  const headers: Record<string, string> = {};
  for (const line of raw
    .slice(0, split)
    .replace(/\n[ \t]+/g, ' ')
    .split('\n')) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = raw.slice(split + 2);
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') {
    body = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  } else if (encoding === 'base64') {
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { headers, text: body };
}

/** The code an authenticator app would show for this base32 secret at this time. */
export function totpCode(secret: string, at: Date): string {
  return OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: at.getTime(),
  });
}

let seq = 0;
/** A unique e-mail per call, so tests sharing one database never collide. */
export function uniqueEmail(prefix = 'user'): string {
  seq += 1;
  return `${prefix}.${process.pid}.${seq}.${randomBytes(3).toString('hex')}@example.com`;
}

export const PASSWORD = 'correct horse battery';

export function json<T = any>(res: LightMyRequestResponse): T {
  return res.json() as T;
}

export async function countRows(
  db: DbAdapter,
  table:
    | 'patients'
    | 'doctors'
    | 'sessions'
    | 'login_failures'
    | 'account_tokens'
    | 'oidc_logins'
    | 'connection_requests'
    | 'assignments'
    | 'medical_records'
    | 'prescriptions'
    | 'audit_log'
    | 'medical_files'
    | 'reminders'
    | 'reminder_deliveries',
): Promise<number> {
  const [row] = await selectRows<{ n: number | string }>(db.db, sql.raw(`select count(*)::int as n from ${table}`));
  return Number(row.n);
}

/** audit_log rows of work done (reads, writes, security events): all but the 'denied' rows a refusal writes. */
export async function countAuditedWork(db: DbAdapter): Promise<number> {
  const [row] = await selectRows<{ n: number | string }>(
    db.db,
    sql`select count(*)::int as n from audit_log where action <> 'denied'`,
  );
  return Number(row.n);
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/** The professional registration a test doctor signs up with unless told (a well-formed GMC number). */
export const TEST_REGISTRATION = { register: 'GMC', number: '1234567' } as const;

/** The signup body's extra fields a role needs: a doctor's professional registration. */
export const signupExtras = (role: 'patient' | 'doctor'): Record<string, unknown> =>
  role === 'doctor' ? { registration: TEST_REGISTRATION } : {};

/**
 * Verifies the doctor's professional registration as the operator command does (the same library
 * function, modules/profiles/registration.ts), at the app's clock.
 */
export async function verifyRegistrationOf(app: FastifyInstance, email: string): Promise<void> {
  const found = appClocks.get(app);
  if (!found) throw new Error('not an app of createTestApp');
  const result = await verifyDoctorRegistration(found.db.db, { doctor: email, by: OPERATOR, at: found.clock.now() });
  if (result.outcome === 'unknown') throw new Error(`no doctor ${email} to verify`);
}

/**
 * A password signup through the api. The account is VERIFIED by default: its verification link is
 * taken from the outbox and posted, as its owner would; a doctor's professional registration is
 * verified too, as the operator would. `{ verified: false }` leaves the e-mail unverified and
 * `{ registrationVerified: false }` the registration.
 */
export async function signup(
  app: FastifyInstance,
  role: 'patient' | 'doctor',
  body: Record<string, unknown> = {},
  {
    verified = true,
    twoFactor,
    registrationVerified = true,
  }: { verified?: boolean; twoFactor?: boolean; registrationVerified?: boolean } = {},
) {
  const email = (body.email as string) ?? uniqueEmail(role);
  const res = await app.inject({
    method: 'POST',
    url: `/${role}/signup`,
    payload: { name: `Test ${role}`, email, password: PASSWORD, ...signupExtras(role), ...body },
  });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  if (verified) await verifyEmailOf(app, role, email);
  if (role === 'doctor' && registrationVerified) await verifyRegistrationOf(app, email);
  const token = res.json().token as string;
  // A role that must have two-factor (REQUIRE_MFA_FOR, doctors by default) reaches nothing else without it.
  const enrol = twoFactor ?? appClocks.get(app)?.config.requireMfaFor.includes(role) ?? false;
  const recoveryCodes = enrol ? await enrolTwoFactor(app, role, email, token) : undefined;
  return { email, token, recoveryCodes };
}

/** The authenticator of each account enrolled here (by e-mail): its secret and the last step used. */
const authenticators = new Map<string, { secret: string; lastStep: number }>();
const STEP_MS = 30_000;

function clockOf(app: FastifyInstance): ManualClock {
  const found = appClocks.get(app);
  if (!found) throw new Error('not an app of createTestApp');
  return found.clock;
}

/** The two-factor secret enrolled for `email` by signup or enrolTwoFactor. */
export function twoFactorSecretOf(email: string): string {
  const a = authenticators.get(email.toLowerCase());
  if (!a) throw new Error(`no two-factor enrolled for ${email}`);
  return a.secret;
}

/**
 * A code the server will accept now: of a step within ±1 of the app's clock that was not used yet
 * (TOTP replay protection refuses a used step); the clock moves on a step when all three are used.
 */
export function nextTwoFactorCode(app: FastifyInstance, email: string): string {
  const a = authenticators.get(email.toLowerCase());
  if (!a) throw new Error(`no two-factor enrolled for ${email}`);
  const clock = clockOf(app);
  let current = Math.floor(clock.now().getTime() / STEP_MS);
  if (a.lastStep >= current + 1) {
    if (a.lastStep > current + 1) throw new Error(`the clock moved back past the last two-factor step of ${email}`);
    clock.advance(STEP_MS);
    current += 1;
  }
  const step = Math.max(a.lastStep + 1, current - 1);
  a.lastStep = step;
  return totpCode(a.secret, new Date(step * STEP_MS));
}

/** Turns two-factor on through the api, as its owner would; answers the recovery codes. */
export async function enrolTwoFactor(app: FastifyInstance, role: 'patient' | 'doctor', email: string, token: string) {
  const setup = await app.inject({ method: 'GET', url: `/${role}/qrCode`, headers: bearer(token) });
  if (setup.statusCode !== 200) throw new Error(`qrCode failed: ${setup.statusCode} ${setup.body}`);
  authenticators.set(email.toLowerCase(), { secret: setup.json().secret as string, lastStep: -Infinity });
  const code = nextTwoFactorCode(app, email);
  const res = await app.inject({ method: 'POST', url: `/${role}/verifyqrCode`, headers: bearer(token), payload: { code } });
  if (res.statusCode !== 200 || res.json().verify !== true) throw new Error(`verifyqrCode failed: ${res.statusCode} ${res.body}`);
  return res.json().recoveryCodes as string[];
}

/**
 * A full login through the api: the password, then (two-factor on) a fresh code. Answers the
 * session token; throws on anything else.
 */
export async function logIn(
  app: FastifyInstance,
  role: 'patient' | 'doctor',
  email: string,
  password = PASSWORD,
): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `/${role}/login`, payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  if (!body.twoFactorRequired) return body.token as string;
  const idKey = role === 'patient' ? 'patientId' : 'doctorId';
  const code = nextTwoFactorCode(app, email);
  const step = await app.inject({ method: 'POST', url: `/${role}/verify2FA`, payload: { [idKey]: body[idKey], code } });
  if (step.statusCode !== 200) throw new Error(`verify2FA failed: ${step.statusCode} ${step.body}`);
  return step.json().token as string;
}

/** The token of the newest verification link mailed to `email` (the outbox of `dataDir`). */
export async function verificationTokenFor(app: FastifyInstance, role: 'patient' | 'doctor', email: string): Promise<string> {
  await app.backgroundTasks.idle(); // mail goes out after the answer
  const dir = outboxDir(dataDirOf(app));
  const pattern = new RegExp(`/${role}/verify-email/([A-Za-z0-9_-]+)`);
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .reverse()
    : [];
  for (const file of files) {
    const mail = parseEml(fs.readFileSync(path.join(dir, file), 'utf8'));
    const found = mail.headers.to?.toLowerCase() === email.toLowerCase() && pattern.exec(mail.text);
    if (found) return found[1];
  }
  throw new Error(`no verification mail to ${email}`);
}

/**
 * Follows the newest verification link mailed to `email`, through POST /{role}/verify-email/{token}
 * with the account's password (PASSWORD unless told).
 */
export async function verifyEmailOf(
  app: FastifyInstance,
  role: 'patient' | 'doctor',
  email: string,
  password = PASSWORD,
): Promise<void> {
  const token = await verificationTokenFor(app, role, email);
  const res = await app.inject({ method: 'POST', url: `/${role}/verify-email/${token}`, payload: { password } });
  if (res.statusCode !== 200) throw new Error(`verify-email failed: ${res.statusCode} ${res.body}`);
}

/**
 * The usual test file's fixture: a fresh database of `backend` and an app on it, made before the
 * file's tests and closed after them. Destructure it in a beforeAll: `({ t, tdb } = fixture)`.
 */
export function appPerFile(backend: Backend, env: Record<string, string> = {}): { t: TestApp; tdb: TestDb } {
  const fixture = {} as { t: TestApp; tdb: TestDb };
  beforeAll(async () => {
    fixture.tdb = await createTestDb(backend);
    fixture.t = await createTestApp(fixture.tdb.adapter, env);
  });
  afterAll(async () => {
    await fixture.t?.app.close();
    await fixture.tdb?.cleanup();
  });
  return fixture;
}
