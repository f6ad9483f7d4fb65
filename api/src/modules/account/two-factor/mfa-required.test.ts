import { and, eq } from 'drizzle-orm';
import { MFA_REQUIRED, CURRENT_PASSWORD_WRONG } from '@careloop/shared-contracts';
import { auditLog, recoveryCodes } from '../../../db/schema';
import {
  appPerFile,
  BACKENDS,
  bearer,
  enrolTwoFactor,
  logIn,
  nextTwoFactorCode,
  PASSWORD,
  readOutbox,
  signup,
  type TestApp,
} from '../../../test/helpers';
import { account, connect } from '../../../test/clinical';
import { INVALID_CODE } from './routes';

type Role = 'patient' | 'doctor';
const idKey = (role: Role) => (role === 'patient' ? 'patientId' : 'doctorId');

describe.each(BACKENDS)('two-factor required for clinicians (REQUIRE_MFA_FOR default) on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t } = fixture));

  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  it('a doctor with two-factor off gets 403 MFA_REQUIRED on patient data, and 200 on what enrolment needs', async () => {
    const patient = await account(t, 'patient');
    const doctor = await account(t, 'doctor', {}, { twoFactor: false });
    await connect(t, doctor, patient);
    for (const url of [
      '/doctor/worklist',
      '/medicalhistories',
      `/drug-alerts/${patient.id}?drug=aspirin`,
      '/doctor/receivedRequests',
      '/doctor/audit',
    ]) {
      const res = await get(url, doctor.token);
      expect([url, res.statusCode, res.json()]).toEqual([url, 403, { error: MFA_REQUIRED }]);
    }
    // FHIR answers its errors as an OperationOutcome, with the same text.
    for (const url of [`/fhir/R4/Patient/${patient.id}`, `/fhir/R4/Patient/${patient.id}/$everything`]) {
      const res = await get(url, doctor.token);
      expect([url, res.statusCode, res.json().issue?.[0]?.diagnostics]).toEqual([url, 403, MFA_REQUIRED]);
    }
    expect((await get('/doctor/me', doctor.token)).statusCode).toBe(200);
    expect((await get('/doctor/recovery-codes', doctor.token)).json()).toEqual({ remaining: 0 });
    expect((await get('/doctor/qrCode', doctor.token)).statusCode).toBe(200);

    // Once two-factor is on, the same session reaches the data (read with the session, no new login).
    await enrolTwoFactor(t.app, 'doctor', doctor.email, doctor.token);
    expect((await get('/doctor/worklist', doctor.token)).statusCode).toBe(200);
    expect((await get(`/drug-alerts/${patient.id}?drug=aspirin`, doctor.token)).statusCode).toBe(200);
    expect((await get(`/fhir/R4/Patient/${patient.id}`, doctor.token)).statusCode).toBe(200);
  });

  it('logout is open before enrolment; PATCH /doctor/me is not', async () => {
    const doctor = await account(t, 'doctor', {}, { twoFactor: false });
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/doctor/me',
      headers: bearer(doctor.token),
      payload: { name: 'X Y' },
    });
    expect(patch.statusCode).toBe(403);
    const out = await t.app.inject({ method: 'POST', url: '/doctor/logout', headers: bearer(doctor.token) });
    expect(out.statusCode).toBe(204);
  });

  it('patients are not forced: a patient with two-factor off reads its own data', async () => {
    const patient = await account(t, 'patient');
    expect((await get('/medicalhistories', patient.token)).statusCode).toBe(200);
    expect((await get('/patient/receivedRequests', patient.token)).statusCode).toBe(200);
  });

  it('signup of a doctor through the test helper enrols: ten recovery codes, xxxxx-xxxxx, all different, hashed at rest', async () => {
    const doctor = await signup(t.app, 'doctor');
    const codes = doctor.recoveryCodes!;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    const me = (await get('/doctor/me', doctor.token)).json().doctor;
    const rows = await t.db.db
      .select()
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.role, 'doctor'), eq(recoveryCodes.accountId, me._id)));
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(rows);
    for (const c of codes) {
      expect(stored).not.toContain(c);
      expect(stored).not.toContain(c.replace('-', ''));
    }
    expect((await get('/doctor/recovery-codes', doctor.token)).json()).toEqual({ remaining: 10 });
  });

  async function passwordStep(role: Role, email: string) {
    const res = await t.app.inject({ method: 'POST', url: `/${role}/login`, payload: { email, password: PASSWORD } });
    expect(res.json().twoFactorRequired).toBe(true);
    return res.json()[idKey(role)] as string;
  }
  const verify2fa = (role: Role, id: string, code: string) =>
    t.app.inject({ method: 'POST', url: `/${role}/verify2FA`, payload: { [idKey(role)]: id, code } });

  it('a recovery code signs in once, ends every other session, is audited and mailed to the owner', async () => {
    const doctor = await signup(t.app, 'doctor');
    const other = await logIn(t.app, 'doctor', doctor.email);
    const [code] = doctor.recoveryCodes!;
    const id = await passwordStep('doctor', doctor.email);
    // Typed in lower case without the dash is the same code.
    const res = await verify2fa('doctor', id, code.toLowerCase().replace('-', ''));
    expect(res.statusCode).toBe(200);
    const token = res.json().token as string;
    expect((await get('/doctor/worklist', token)).statusCode).toBe(200);
    // The sign-up session and the other login are signed out.
    expect((await get('/doctor/me', doctor.token)).statusCode).toBe(401);
    expect((await get('/doctor/me', other)).statusCode).toBe(401);
    expect((await get('/doctor/recovery-codes', token)).json()).toEqual({ remaining: 9 });

    const events = await t.db.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, id), eq(auditLog.action, 'recovery-code-sign-in')));
    expect(events).toHaveLength(1);
    const mail = (await readOutbox(t)).filter((m) => m.headers.to === doctor.email);
    expect(mail.at(-1)?.headers.subject).toBe('CareLoop: someone signed in with a recovery code');
    expect(mail.at(-1)?.text).toContain('9 unused recovery codes are left');

    // Single use.
    const again = await passwordStep('doctor', doctor.email);
    const reuse = await verify2fa('doctor', again, code);
    expect([reuse.statusCode, reuse.json()]).toEqual([401, { error: INVALID_CODE }]);
  });

  it('two sign-ins racing with the same recovery code: exactly one gets a session', async () => {
    const doctor = await signup(t.app, 'doctor');
    const code = doctor.recoveryCodes![3];
    const id = await passwordStep('doctor', doctor.email);
    const results = await Promise.all([
      verify2fa('doctor', id, code),
      verify2fa('doctor', id, code),
      verify2fa('doctor', id, code),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
    expect((await get('/doctor/recovery-codes', results.find((r) => r.statusCode === 200)!.json().token)).json()).toEqual({
      remaining: 9,
    });
  });

  it('wrong recovery codes count toward the two-factor lockout', async () => {
    const doctor = await signup(t.app, 'doctor');
    const id = await passwordStep('doctor', doctor.email);
    for (let i = 0; i < 5; i += 1) expect((await verify2fa('doctor', id, 'AAAAA-AAAAA')).statusCode).toBe(401);
    // Locked now: even a right code is refused.
    expect((await verify2fa('doctor', id, doctor.recoveryCodes![0])).statusCode).toBe(429);
    expect((await verify2fa('doctor', id, nextTwoFactorCode(t.app, doctor.email))).statusCode).toBe(429);
  });

  it('new recovery codes need the current password, replace the old ones and are audited', async () => {
    const doctor = await signup(t.app, 'doctor');
    const regen = (body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/doctor/recovery-codes', headers: bearer(doctor.token), payload: body });
    expect((await regen({})).statusCode).toBe(400);
    const wrong = await regen({ currentPassword: 'not the password' });
    expect([wrong.statusCode, wrong.json()]).toEqual([403, { error: CURRENT_PASSWORD_WRONG }]);
    const res = await regen({ currentPassword: PASSWORD });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => doctor.recoveryCodes!.includes(c))).toBe(false);

    const id = await passwordStep('doctor', doctor.email);
    expect((await verify2fa('doctor', id, doctor.recoveryCodes![0])).statusCode).toBe(401);
    expect((await verify2fa('doctor', id, fresh[0])).statusCode).toBe(200);
    const events = await t.db.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, id), eq(auditLog.action, 'recovery-codes')));
    expect(events).toHaveLength(1);
  });

  it('recovery codes are only for an account with two-factor on (409); turning two-factor off deletes them', async () => {
    const patient = await signup(t.app, 'patient');
    const off = await t.app.inject({
      method: 'POST',
      url: '/patient/recovery-codes',
      headers: bearer(patient.token),
      payload: { currentPassword: PASSWORD },
    });
    expect(off.statusCode).toBe(409);
    const codes = await enrolTwoFactor(t.app, 'patient', patient.email, patient.token);
    expect(codes).toHaveLength(10);
    expect((await get('/patient/recovery-codes', patient.token)).json()).toEqual({ remaining: 10 });
    const removed = await t.app.inject({
      method: 'POST',
      url: '/patient/remove2FA',
      headers: bearer(patient.token),
      payload: { currentPassword: PASSWORD },
    });
    expect(removed.statusCode).toBe(200);
    expect((await get('/patient/recovery-codes', patient.token)).json()).toEqual({ remaining: 0 });
  });
});

describe.each(BACKENDS)('REQUIRE_MFA_FOR=none on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend, { REQUIRE_MFA_FOR: 'none' });
  beforeAll(() => ({ t } = fixture));

  it('does not force doctors: one with two-factor off reads its patients', async () => {
    const patient = await account(t, 'patient');
    const doctor = await account(t, 'doctor');
    await connect(t, doctor, patient);
    const me = await t.app.inject({ method: 'GET', url: '/doctor/me', headers: bearer(doctor.token) });
    expect(me.json().doctor.twoFactorEnabled).toBe(false);
    for (const url of ['/doctor/worklist', `/drug-alerts/${patient.id}?drug=aspirin`, `/fhir/R4/Patient/${patient.id}`]) {
      expect((await t.app.inject({ method: 'GET', url, headers: bearer(doctor.token) })).statusCode).toBe(200);
    }
  });
});

describe.each(BACKENDS)('REQUIRE_MFA_FOR=patient,doctor on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend, { REQUIRE_MFA_FOR: 'patient,doctor' });
  beforeAll(() => ({ t } = fixture));

  it('forces patients too', async () => {
    const patient = await signup(t.app, 'patient', {}, { twoFactor: false });
    const res = await t.app.inject({ method: 'GET', url: '/medicalhistories', headers: bearer(patient.token) });
    expect([res.statusCode, res.json()]).toEqual([403, { error: MFA_REQUIRED }]);
    expect((await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(patient.token) })).statusCode).toBe(200);
  });
});
