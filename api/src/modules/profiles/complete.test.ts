import { eq } from 'drizzle-orm';
import { doctors, patients } from '../../db/schema';
import { BACKENDS, bearer, countRows, createTestApp, createTestDb, signup, type TestApp, type TestDb } from '../../test/helpers';

const PATIENT = {
  DOB: '1990-01-02',
  gender: 'Male',
  maritalStatus: 'Unmarried',
  occupation: 'Engineer',
  address: { street: '3 High St', city: 'York', state: 'NY', pinCode: 'YO1' },
};
const DOCTOR = { gender: 'Other', specialization: ['Neurology'], yearsOfExperience: 7, qualifications: ['MBBS'] };

describe.each(BACKENDS)('complete profile on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter);
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  const complete = (role: string, token: string | undefined, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/${role}/complete-profile`,
      headers: token ? bearer(token) : {},
      payload: payload as object,
    });
  const me = (role: string, token: string) => t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(token) });
  /** A patient as Google sign-in makes one: profileComplete false (a password signup is complete). */
  const incompletePatient = async () => {
    const { email, token } = await signup(t.app, 'patient');
    await t.db.db.update(patients).set({ profileComplete: false }).where(eq(patients.email, email));
    return { email, token };
  };

  it('sets a doctor profile and rotates the session', async () => {
    const { token } = await signup(t.app, 'doctor');
    const res = await complete('doctor', token, DOCTOR);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ token: expect.any(String), role: 'doctor' });
    expect((await me('doctor', token)).statusCode).toBe(401);
    const profile = (await me('doctor', res.json().token)).json().doctor;
    expect(profile).toMatchObject(DOCTOR);
  });

  it('sets a patient profile, marks it complete and rotates the session', async () => {
    const { token } = await incompletePatient();
    const res = await complete('patient', token, { ...PATIENT, occupation: '  Engineer ' });
    expect(res.statusCode).toBe(200);
    expect((await me('patient', token)).statusCode).toBe(401);
    expect((await me('patient', res.json().token)).json().patient).toMatchObject({
      ...PATIENT,
      profileComplete: true,
      assignedDoctors: [],
    });
  });

  const without = (o: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
  const patientCases: Array<[string, unknown, RegExp]> = [
    ...Object.keys(PATIENT).map((k): [string, unknown, RegExp] => [`no ${k}`, without(PATIENT, k), new RegExp(`^${k}: `)]),
    ['a blank occupation', { ...PATIENT, occupation: '  ' }, /^occupation: Required/],
    ['an address without city', { ...PATIENT, address: without(PATIENT.address, 'city') }, /^address\.city: /],
    ['a blank pin code', { ...PATIENT, address: { ...PATIENT.address, pinCode: '' } }, /^address\.pinCode: /],
    ['a bad date', { ...PATIENT, DOB: '1990-13-01' }, /^DOB: /],
    // The same date rules as signup and edit (BirthDate).
    ['a birth date in the future', { ...PATIENT, DOB: '2099-01-01' }, /^DOB: Date of birth cannot be in the future/],
    ['a birth date before 1900', { ...PATIENT, DOB: '1899-12-31' }, /^DOB: Date of birth cannot be before 1900/],
    ['a bad marital status', { ...PATIENT, maritalStatus: 'Divorced' }, /^maritalStatus: /],
    ['an unknown key', { ...PATIENT, email: 'x@example.com' }, /email/],
    ['no body', undefined, /./],
  ];
  it.each(patientCases)('refuses a patient body with %s (400), changing nothing', async (_l, payload, message) => {
    const { token } = await incompletePatient();
    const sessions = await countRows(t.db, 'sessions');
    const res = await complete('patient', token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
    expect(await countRows(t.db, 'sessions')).toBe(sessions);
    expect((await me('patient', token)).json().patient.occupation).toBe('');
  });

  const doctorCases: Array<[string, unknown, RegExp]> = [
    ...Object.keys(DOCTOR).map((k): [string, unknown, RegExp] => [`no ${k}`, without(DOCTOR, k), new RegExp(`^${k}: `)]),
    ['an empty specialization list', { ...DOCTOR, specialization: [] }, /^specialization: /],
    ['yearsOfExperience 0', { ...DOCTOR, yearsOfExperience: 0 }, /^yearsOfExperience: /],
    ['a bad gender', { ...DOCTOR, gender: 'Robot' }, /^gender: /],
  ];
  it.each(doctorCases)('refuses a doctor body with %s (400)', async (_l, payload, message) => {
    const { token } = await signup(t.app, 'doctor');
    const res = await complete('doctor', token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
    expect((await me('doctor', token)).statusCode).toBe(200);
  });

  it('is for the own role only, and needs a session', async () => {
    const doctor = await signup(t.app, 'doctor');
    const patient = await signup(t.app, 'patient');
    expect((await complete('patient', doctor.token, PATIENT)).statusCode).toBe(403);
    expect((await complete('doctor', patient.token, DOCTOR)).statusCode).toBe(403);
    const anonymous = await complete('patient', undefined, PATIENT);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: 'Unauthorized' });
  });

  it('refuses to overwrite a complete patient profile (409), changing nothing', async () => {
    const { token } = await incompletePatient();
    const first = await complete('patient', token, PATIENT);
    expect(first.statusCode).toBe(200);
    const fresh = first.json().token;
    const sessions = await countRows(t.db, 'sessions');
    const again = await complete('patient', fresh, { ...PATIENT, occupation: 'Attacker', DOB: '1950-05-05' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'This profile is already complete; change it on the edit profile page' });
    expect(await countRows(t.db, 'sessions')).toBe(sessions);
    expect((await me('patient', fresh)).json().patient).toMatchObject({ occupation: 'Engineer', DOB: '1990-01-02' });
  });

  it('refuses a patient who signed up with a password (their profile is complete) with 409', async () => {
    const { token } = await signup(t.app, 'patient');
    const res = await complete('patient', token, PATIENT);
    expect(res.statusCode).toBe(409);
    expect((await me('patient', token)).statusCode).toBe(200); // the session was not rotated
    expect((await me('patient', token)).json().patient.occupation).toBe('');
  });

  it('refuses to overwrite a complete doctor profile (409): both lists filled', async () => {
    const { token } = await signup(t.app, 'doctor');
    const fresh = (await complete('doctor', token, DOCTOR)).json().token;
    const again = await complete('doctor', fresh, { ...DOCTOR, specialization: ['Other'] });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/already complete/);
    expect((await me('doctor', fresh)).json().doctor.specialization).toEqual(['Neurology']);
    // A doctor who signed up with both lists has a complete profile too.
    const listed = await signup(t.app, 'doctor', { specialization: ['Cardiology'], qualifications: ['MD'] });
    expect((await complete('doctor', listed.token, DOCTOR)).statusCode).toBe(409);
  });

  it('completes a doctor profile while one list is still empty', async () => {
    const { email, token } = await signup(t.app, 'doctor', { specialization: ['Cardiology'] });
    const res = await complete('doctor', token, DOCTOR);
    expect(res.statusCode).toBe(200);
    const [row] = await t.db.db.select().from(doctors).where(eq(doctors.email, email));
    expect(row).toMatchObject({ specialization: ['Neurology'], qualifications: ['MBBS'] });
  });

  it('signup and PATCH /patient/me apply the same birth-date rules (BirthDate)', async () => {
    for (const [DOB, error] of [
      ['2099-01-01', 'DOB: Date of birth cannot be in the future'],
      ['1899-12-31', 'DOB: Date of birth cannot be before 1900'],
    ]) {
      const made = await t.app.inject({
        method: 'POST',
        url: '/patient/signup',
        payload: { name: 'Dee', email: `dob-${DOB}-${Math.random()}@example.com`, password: 'correct horse battery', DOB },
      });
      expect([made.statusCode, made.json().error]).toEqual([400, error]);
      const { token } = await signup(t.app, 'patient');
      const edit = await t.app.inject({ method: 'PATCH', url: '/patient/me', headers: bearer(token), payload: { DOB } });
      expect([edit.statusCode, edit.json().error]).toEqual([400, error]);
    }
    const { token } = await signup(t.app, 'patient', { DOB: '1900-01-01' });
    expect((await me('patient', token)).json().patient.DOB).toBe('1900-01-01');
  });
});
