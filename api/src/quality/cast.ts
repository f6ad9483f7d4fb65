import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Role } from '@careloop/shared-contracts';
import { selectRows } from '../adapters/db';
import { account, prescriptionBody, recordBody, type Account } from '../test/clinical';
import { local, PDF } from '../test/files';
import {
  bearer,
  createTestApp,
  createTestDb,
  logIn,
  PASSWORD,
  readOutbox,
  totpCode,
  type Backend,
  type TestApp,
  type TestDb,
} from '../test/helpers';

/**
 * The people and data both quality suites act on, made through the real endpoints:
 *   P  patient, owner of the data            P2 another patient
 *   D  doctor assigned to P (request+accept) D2 a doctor not assigned to P
 *   P's medical record (by D), prescription (by D), stored PDF (signed URL upload), a reminder D → P,
 *   two pending requests (D2 → P, addressed to P; P2 → D, addressed to D),
 *   an EXPIRED token (a P session from before the clock moved past the session TTL) and a REVOKED
 *   one (a P session that logged out).
 */
export interface Cast {
  tdb: TestDb;
  t: TestApp;
  P: Account;
  P2: Account;
  D: Account;
  D2: Account;
  recordId: string;
  prescriptionId: string;
  reminderId: string;
  /** pending, D2 → P (P is the addressee) */
  requestToP: string;
  /** pending, P2 → D (D is the addressee) */
  requestToD: string;
  /** the stored PDF's key, `<P.id>/<uuid>.pdf` */
  fileKey: string;
  expiredToken: string;
  revokedToken: string;
}

export function must(res: LightMyRequestResponse, status: number, what: string): LightMyRequestResponse {
  if (res.statusCode !== status)
    throw new Error(`cast: ${what} answered ${res.statusCode}, expected ${status}: ${res.body.slice(0, 500)}`);
  return res;
}

/** A new session of an existing account, through POST /{role}/login. */
export async function login(t: TestApp, who: Pick<Account, 'role' | 'email'>): Promise<string> {
  // through the second factor when the account has it (doctors do, REQUIRE_MFA_FOR)
  return logIn(t.app, who.role, who.email);
}

/** A pending connection request from `from` to `to`; its id. */
export async function requestBetween(t: TestApp, from: Account, to: Account): Promise<string> {
  const path = from.role === 'doctor' ? '/doctor/requestPatient' : '/patient/requestDoctor';
  must(
    await t.app.inject({ method: 'POST', url: path, headers: bearer(from.token), payload: { email: to.email } }),
    201,
    `request ${path}`,
  );
  const received = must(
    await t.app.inject({ method: 'GET', url: `/${to.role}/receivedRequests`, headers: bearer(to.token) }),
    200,
    'receivedRequests',
  ).json() as { _id: string; doctor: { email: string }; patient: { email: string } }[];
  const found = received.find((r) => r[from.role].email === from.email);
  if (!found) throw new Error(`cast: no pending request from ${from.email} to ${to.email}`);
  return found._id;
}

export async function newUploadUrl(t: TestApp, patient: Account, fileName = 'scan.pdf'): Promise<string> {
  const res = must(
    await t.app.inject({
      method: 'GET',
      url: `/medical-record/${patient.id}?fileType=application%2Fpdf&fileName=${encodeURIComponent(fileName)}`,
      headers: bearer(patient.token),
    }),
    200,
    'upload URL',
  );
  return local(res.json().uploadUrl as string);
}

/** A signed download URL (path and query) of P's first stored file. */
export async function newDownloadUrl(c: Cast): Promise<string> {
  const res = must(await c.t.app.inject({ method: 'GET', url: '/medical-record', headers: bearer(c.P.token) }), 200, 'file list');
  const urls = res.json().presignedUrl as string[];
  if (urls.length === 0) throw new Error('cast: P has no stored file');
  return local(urls[0]);
}

export function reminderBody(c: Cast, over: Record<string, unknown> = {}) {
  const start = new Date(c.t.clock.now().getTime() + 7 * 86_400_000).toISOString();
  return {
    to: c.P.email,
    subject: 'Blood test',
    text: 'Please book your blood test.',
    startDate: start,
    intervalDays: 0,
    ...over,
  };
}

export async function newReminder(c: Cast): Promise<string> {
  const res = must(
    await c.t.app.inject({ method: 'POST', url: '/doctor/reminder', headers: bearer(c.D.token), payload: reminderBody(c) }),
    201,
    'reminder',
  );
  return res.json()._id as string;
}

/** A link from the newest reset e-mail sent to `email`: `{ id, token }`. */
export async function resetLinkFor(t: TestApp, email: string): Promise<{ id: string; token: string }> {
  const mails = (await readOutbox(t)).filter((m) => (m.headers.to ?? '').includes(email));
  const last = mails[mails.length - 1];
  const m = last && /reset-password\/([0-9a-f-]{36})\/([A-Za-z0-9_-]+)/.exec(last.text);
  if (!m) throw new Error(`cast: no reset e-mail for ${email}`);
  return { id: m[1], token: m[2] };
}

/**
 * A fresh account with two-factor ON and a login that just passed the password step:
 * the body POST /{role}/verify2FA accepts (a right code of the current 30 s step).
 */
export async function pendingSecondFactor(t: TestApp, role: Role): Promise<Record<string, string>> {
  const who = await account(t, role, {}, { twoFactor: false });
  const qr = must(await t.app.inject({ method: 'GET', url: `/${role}/qrCode`, headers: bearer(who.token) }), 200, 'qrCode');
  const secret = qr.json().secret as string;
  const verified = must(
    await t.app.inject({
      method: 'POST',
      url: `/${role}/verifyqrCode`,
      headers: bearer(who.token),
      payload: { code: totpCode(secret, t.clock.now()) },
    }),
    200,
    'verifyqrCode',
  );
  if (verified.json().verify !== true) throw new Error('cast: two-factor setup code refused');
  t.clock.advance(31_000); // the next step: the setup code may not be replayed
  const step = must(
    await t.app.inject({ method: 'POST', url: `/${role}/login`, payload: { email: who.email, password: PASSWORD } }),
    200,
    '2FA login',
  ).json();
  const idKey = role === 'patient' ? 'patientId' : 'doctorId';
  if (step.twoFactorRequired !== true) throw new Error('cast: login did not ask for a code');
  return { [idKey]: step[idKey], code: totpCode(secret, t.clock.now()) };
}

/** Every base table of the schema (public), counted in one round trip. */
export async function tableNames(t: TestApp): Promise<string[]> {
  const rows = await selectRows<{ name: string }>(
    t.db.db,
    sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  return rows.map((r) => r.name);
}

export async function countAll(t: TestApp, tables: string[]): Promise<Record<string, number>> {
  const list = tables.map((name) => `(select count(*) from "${name}")::int as "${name}"`).join(', ');
  const [row] = await selectRows<Record<string, number | string>>(t.db.db, sql.raw(`select ${list}`));
  return Object.fromEntries(tables.map((name) => [name, Number(row[name])]));
}

export async function buildCast(backend: Backend, env: Record<string, string> = {}): Promise<Cast> {
  const tdb = await createTestDb(backend);
  // Who may see what, not whether two-factor is on (modules/account/two-factor/mfa-required.test.ts): the
  // cast's doctors have it off and are not forced, so its routes answer as for any account.
  const t = await createTestApp(tdb.adapter, { REQUIRE_MFA_FOR: 'none', ...env });
  const P = await account(t, 'patient', { name: 'Pat Owner' });
  const P2 = await account(t, 'patient', { name: 'Pia Other' });
  const D = await account(t, 'doctor', { name: 'Dr Assigned' });
  const D2 = await account(t, 'doctor', { name: 'Dr Unassigned' });

  // EXPIRED: a session made now, then the clock moves past the TTL; everyone signs in again after.
  const expiredToken = await login(t, P);
  t.clock.advance((t.config.sessionMaxHours + 1) * 3_600_000);
  for (const who of [P, P2, D, D2]) who.token = await login(t, who);
  // REVOKED: a session that logged out.
  const revokedToken = await login(t, P);
  must(await t.app.inject({ method: 'POST', url: '/patient/logout', headers: bearer(revokedToken) }), 204, 'logout');

  // D ↔ P through the real request/accept endpoints.
  const dToP = await requestBetween(t, D, P);
  must(
    await t.app.inject({
      method: 'PATCH',
      url: `/patient/responseRequest/${dToP}`,
      headers: bearer(P.token),
      payload: { action: 'accept' },
    }),
    200,
    'accept',
  );

  const record = must(
    await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${P.id}`,
      headers: bearer(D.token),
      payload: recordBody({ allergies: 'penicillin' }),
    }),
    201,
    'record',
  );
  const prescription = must(
    await t.app.inject({ method: 'POST', url: `/prescription/${P.id}`, headers: bearer(D.token), payload: prescriptionBody() }),
    201,
    'prescription',
  );

  const uploadUrl = await newUploadUrl(t, P, 'scan.pdf');
  const put = must(
    await t.app.inject({ method: 'PUT', url: uploadUrl, headers: { 'content-type': 'application/pdf' }, payload: PDF }),
    200,
    'upload',
  );

  const requestToP = await requestBetween(t, D2, P);
  const requestToD = await requestBetween(t, P2, D);

  const c: Cast = {
    tdb,
    t,
    P,
    P2,
    D,
    D2,
    recordId: record.json().record._id,
    prescriptionId: prescription.json()._id,
    reminderId: '',
    requestToP,
    requestToD,
    fileKey: put.json().key,
    expiredToken,
    revokedToken,
  };
  c.reminderId = await newReminder(c);
  return c;
}

export async function closeCast(c: Cast | undefined): Promise<void> {
  await c?.t.app.close();
  await c?.tdb.cleanup();
}

/** 43 base64url characters, the shape of a real token, matching no session. */
export function unknownToken(): string {
  return randomBytes(32).toString('base64url');
}
