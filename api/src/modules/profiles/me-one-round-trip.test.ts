import { eq } from 'drizzle-orm';
import { assignedDoctorsOf } from '../../access';
import { patients } from '../../db/schema';
import { account, connect } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer, PASSWORD, uniqueEmail, type TestApp } from '../../test/helpers';
import { pendingEmailOf } from '../account/email-verification/tokens';
import { meBySessionQuery, meQuery, patientProfile } from './patient';

// GET /patient/me reads the session and the whole profile in ONE statement (issue 17): it must
// answer exactly what the separate lookups answered, and refuse what the guard refused.
describe.each(BACKENDS)('GET /patient/me in one statement on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t } = fixture));

  const getMe = (token: string) => t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(token) });

  it('answers what the row, pendingEmailOf and assignedDoctorsOf answer separately', async () => {
    const patient = await account(t, 'patient');
    for (const name of ['Dr Zed', 'Dr Abel']) await connect(t, await account(t, 'doctor', { name }), patient);
    const newEmail = uniqueEmail('moved');
    const change = await t.app.inject({
      method: 'PATCH',
      url: '/patient/me',
      headers: bearer(patient.token),
      payload: { email: newEmail, currentPassword: PASSWORD },
    });
    expect(change.statusCode).toBe(200);

    const now = t.clock.now();
    const [row] = await t.db.db.select().from(patients).where(eq(patients.id, patient.id));
    const doctors = await assignedDoctorsOf(t.db.db, patient.id);
    const pending = await pendingEmailOf(t.db.db, { role: 'patient', accountId: patient.id, currentEmail: row.email, now });
    expect(doctors.map((d) => d.name)).toEqual(['Dr Abel', 'Dr Zed']);
    expect(pending).toBe(newEmail);

    const both = await patientProfile.loadBySession!(t.db.db, patient.token, now, t.config);
    expect(both?.session).toEqual({ id: expect.any(String), role: 'patient', accountId: patient.id, twoFactorEnabled: false });
    expect(both?.me).toEqual(await patientProfile.load(t.db.db, patient.id, now));
    expect(both?.me.patient).toMatchObject({
      _id: patient.id,
      email: row.email,
      assignedDoctors: doctors,
      pendingEmail: pending,
    });

    const res = await getMe(patient.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(both?.me)));
  });

  it('reads no password hash and no two-factor secret: only the columns a profile shows', () => {
    for (const statement of [meBySessionQuery(t.db.db), meQuery(t.db.db)]) {
      const { sql } = statement.getQuery();
      expect(sql).toContain('"patients"."email"');
      expect(sql).not.toMatch(/password_hash|two_factor_secret|two_factor_pending_secret|two_factor_last_step/);
    }
  });

  it('refuses a logged-out session on the very next request', async () => {
    const patient = await account(t, 'patient');
    expect((await getMe(patient.token)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/patient/logout', headers: bearer(patient.token) });
    expect(out.statusCode).toBeLessThan(300);
    expect((await getMe(patient.token)).statusCode).toBe(401);
  });

  it("answers 403 to a doctor's session and 401 to a session whose account is gone", async () => {
    const doctor = await account(t, 'doctor');
    expect((await getMe(doctor.token)).statusCode).toBe(403);

    const patient = await account(t, 'patient');
    await t.db.db.delete(patients).where(eq(patients.id, patient.id));
    expect(await patientProfile.loadBySession!(t.db.db, patient.token, t.clock.now(), t.config)).toBeUndefined();
    expect((await getMe(patient.token)).statusCode).toBe(401);
  });

  it('refuses an expired session', async () => {
    const patient = await account(t, 'patient');
    t.clock.advance(t.config.sessionMaxHours * 3_600_000 + 1_000);
    expect((await getMe(patient.token)).statusCode).toBe(401);
  });
});
