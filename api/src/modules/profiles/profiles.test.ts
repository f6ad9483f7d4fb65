import { appPerFile, BACKENDS, PASSWORD, bearer, countRows, signup, uniqueEmail, type TestApp } from '../../test/helpers';
import { BAD_CREDENTIALS, DUPLICATE_EMAIL } from '../account/auth/messages';

describe.each(BACKENDS)('profiles on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t } = fixture));

  const getMe = (role: string, token: string) => t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(token) });
  const patchMe = (role: string, token: string, payload: unknown) =>
    t.app.inject({ method: 'PATCH', url: `/${role}/me`, headers: bearer(token), payload: payload as object });

  it('GET /patient/me returns the full profile', async () => {
    const { token, email } = await signup(t.app, 'patient', {
      DOB: '1990-04-01',
      gender: 'Female',
      maritalStatus: 'Married',
      occupation: 'Teacher',
      address: { street: '1 Main St', city: 'Pune', state: 'MH', pinCode: '411001' },
    });
    const res = await getMe('patient', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      patient: {
        _id: expect.any(String),
        name: 'Test patient',
        email,
        DOB: '1990-04-01',
        gender: 'Female',
        maritalStatus: 'Married',
        occupation: 'Teacher',
        address: { street: '1 Main St', city: 'Pune', state: 'MH', pinCode: '411001' },
        profileComplete: true,
        twoFactorEnabled: false,
        emailVerified: true, // signup() follows the mailed link
        assignedDoctors: [],
        pendingEmail: null,
      },
      profileUrl: null,
    });
  });

  it('PATCH /patient/me updates only the fields given and merges the address', async () => {
    const { token } = await signup(t.app, 'patient', {
      occupation: 'Teacher',
      address: { street: '1 Main St', city: 'Pune', state: 'MH', pinCode: '411001' },
    });
    const res = await patchMe('patient', token, { name: 'New Name', address: { city: 'Mumbai' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toBeUndefined();
    expect(body.patient).toMatchObject({
      name: 'New Name',
      occupation: 'Teacher',
      address: { street: '1 Main St', city: 'Mumbai', state: 'MH', pinCode: '411001' },
    });
    // persisted, not just echoed
    expect((await getMe('patient', token)).json().patient.address.city).toBe('Mumbai');
    // the old token still works: no password change
    expect((await getMe('patient', token)).statusCode).toBe(200);
  });

  it('PATCH /doctor/me updates lists and numbers', async () => {
    const { token } = await signup(t.app, 'doctor', { specialization: ['Cardiology'] });
    const res = await patchMe('doctor', token, { qualifications: ['MBBS', 'MD'], yearsOfExperience: 12 });
    expect(res.statusCode).toBe(200);
    expect(res.json().doctor).toMatchObject({
      specialization: ['Cardiology'],
      qualifications: ['MBBS', 'MD'],
      yearsOfExperience: 12,
      assignedPatients: [],
    });
  });

  it('asks for a new e-mail (lower-cased) with the current password: pending until its link is used', async () => {
    const { token, email } = await signup(t.app, 'doctor');
    const fresh = uniqueEmail('moved');
    const res = await patchMe('doctor', token, { email: fresh.toUpperCase(), currentPassword: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().doctor).toMatchObject({ email, pendingEmail: fresh });
    // The rest of the flow (the link, the notices): auth/reauth.test.ts.
  });

  it('refuses an e-mail another account of the role has with 409, changing nothing', async () => {
    const taken = await signup(t.app, 'patient');
    const { token, email } = await signup(t.app, 'patient');
    const res = await patchMe('patient', token, { email: taken.email, name: 'Should Not Stick', currentPassword: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: DUPLICATE_EMAIL });
    const me = (await getMe('patient', token)).json().patient;
    expect(me.email).toBe(email);
    expect(me.name).toBe('Test patient');
  });

  it('a password change revokes every session and returns a working new token', async () => {
    const { token, email } = await signup(t.app, 'patient');
    const second = (await t.app.inject({ method: 'POST', url: '/patient/login', payload: { email, password: PASSWORD } })).json()
      .token;
    const newPassword = 'a much better passphrase';
    const res = await patchMe('patient', token, { password: newPassword, currentPassword: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toEqual(expect.any(String));
    expect(body.patient.email).toBe(email);
    expect(res.body).not.toContain(newPassword);

    expect((await getMe('patient', token)).statusCode).toBe(401);
    expect((await getMe('patient', second)).statusCode).toBe(401);
    expect((await getMe('patient', body.token)).statusCode).toBe(200);

    const oldLogin = await t.app.inject({ method: 'POST', url: '/patient/login', payload: { email, password: PASSWORD } });
    expect(oldLogin.statusCode).toBe(401);
    expect(oldLogin.json()).toEqual({ error: BAD_CREDENTIALS });
    const newLogin = await t.app.inject({
      method: 'POST',
      url: '/patient/login',
      payload: { email, password: newPassword },
    });
    expect(newLogin.statusCode).toBe(200);
  });

  it.each([
    ['an empty body', 'patient', {}, /Nothing to update/],
    ['an unknown key', 'patient', { role: 'doctor' }, /role/],
    ['a blank name', 'doctor', { name: '   ' }, /^name: /],
    ['a bad e-mail', 'doctor', { email: 'nope' }, /^email: /],
    [
      'a common password',
      'patient',
      { password: 'password123', currentPassword: PASSWORD },
      /^password: This password is too easy to guess\. /,
    ],
    ['an empty current password', 'patient', { password: 'a fine new passphrase', currentPassword: '' }, /^currentPassword: /],
    ['yearsOfExperience 0', 'doctor', { yearsOfExperience: 0 }, /^yearsOfExperience: /],
    ['a future DOB', 'patient', { DOB: '2999-01-01' }, /^DOB: /],
    ['a bad address key', 'patient', { address: { zip: '1' } }, /zip/],
  ])('rejects %s with 400 and changes nothing', async (_label, role, payload, message) => {
    const { token } = await signup(t.app, role as 'patient');
    const before = (await getMe(role, token)).body;
    const sessionsBefore = await countRows(t.db, 'sessions');
    const res = await patchMe(role, token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
    expect((await getMe(role, token)).body).toBe(before);
    expect(await countRows(t.db, 'sessions')).toBe(sessionsBefore);
  });

  it('requires a token', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/patient/me', payload: { name: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});
