import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import {
  DoctorRegistration,
  NPI_CHECK_DIGIT_MESSAGE,
  REGISTER_REQUIRED,
  REGISTRATION_NUMBER_MESSAGES,
  REGISTRATION_UNVERIFIED,
  npiCheckDigitValid,
  registrationLine,
} from '@careloop/shared-contracts';
import { openDatabase } from '../../adapters/db';
import { auditLog, doctors } from '../../db/schema';
import { describeVerification, verifyDoctor } from '../../ops/verify-doctor';
import { serveSnapshots } from '../../ops/snapshot-socket';
import {
  appPerFile,
  BACKENDS,
  bearer,
  countRows,
  createTestApp,
  createTestDb,
  PASSWORD,
  signup,
  uniqueEmail,
  type TestApp,
  type TestDb,
} from '../../test/helpers';
import { verifyDoctorRegistration } from './registration';

/*
 * A doctor's professional registration: its format per register (the contract's schema, the same
 * the signup form validates with), stored at signup, and the rule that a doctor's connection
 * requests open only once an operator verified it (api/src/access/registration.ts).
 */

describe('the registration schema (shared-contracts)', () => {
  const parse = (register: string, number: string) => DoctorRegistration.safeParse({ register, number });
  const message = (register: string, number: string) => {
    const r = parse(register, number);
    return r.success ? undefined : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  };

  it.each([
    ['GMC', '1234567'],
    ['NPI', '1234567893'], // CMS's worked example of the check digit
    ['IMC', '12'],
    ['IMC', '123456'],
    ['AHPRA', 'MED0001234567'],
    ['Other', 'BMDC A-12345'],
  ])('accepts %s %s', (register, number) => {
    expect(message(register, number)).toBeUndefined();
  });

  it.each([
    ['GMC', '123456', REGISTRATION_NUMBER_MESSAGES.GMC],
    ['GMC', '12345678', REGISTRATION_NUMBER_MESSAGES.GMC],
    ['GMC', '123456A', REGISTRATION_NUMBER_MESSAGES.GMC],
    ['NPI', '123456789', REGISTRATION_NUMBER_MESSAGES.NPI],
    ['NPI', '1234567890', NPI_CHECK_DIGIT_MESSAGE],
    ['IMC', '1234567', REGISTRATION_NUMBER_MESSAGES.IMC],
    ['IMC', '', REGISTRATION_NUMBER_MESSAGES.IMC],
    ['AHPRA', 'MED123456789', REGISTRATION_NUMBER_MESSAGES.AHPRA],
    ['AHPRA', 'NMW0001234567', REGISTRATION_NUMBER_MESSAGES.AHPRA],
    ['Other', 'ab', REGISTRATION_NUMBER_MESSAGES.Other],
    ['Other', 'no <script>', REGISTRATION_NUMBER_MESSAGES.Other],
    ['Other', 'x'.repeat(41), REGISTRATION_NUMBER_MESSAGES.Other],
  ])('refuses %s %j: %s', (register, number, expected) => {
    expect(message(register, number)).toBe(`number: ${expected}`);
  });

  it('says which register to choose when none is', () => {
    expect(message('', '1234567')).toBe(`register: ${REGISTER_REQUIRED}`);
    expect(message('NMC', '1234567')).toBe(`register: ${REGISTER_REQUIRED}`);
  });

  it('trims the number and capitalises the AHPRA prefix', () => {
    expect(DoctorRegistration.parse({ register: 'GMC', number: ' 1234567 ' })).toEqual({ register: 'GMC', number: '1234567' });
    expect(DoctorRegistration.parse({ register: 'AHPRA', number: 'med0001234567' })).toEqual({
      register: 'AHPRA',
      number: 'MED0001234567',
    });
  });

  it('checks the NPI check digit with the 80840 prefix (CMS)', () => {
    expect(npiCheckDigitValid('1234567893')).toBe(true);
    for (let d = 0; d <= 9; d++) if (d !== 3) expect(npiCheckDigitValid(`123456789${d}`)).toBe(false);
  });

  it('reads as a patient sees it', () => {
    expect(registrationLine({ register: 'GMC', number: '1234567', verified: true })).toBe('Registration GMC 1234567, verified');
    expect(registrationLine({ register: 'NPI', number: '1234567893', verified: false })).toBe(
      'Registration NPI 1234567893, not verified',
    );
    expect(registrationLine({ register: null, number: null, verified: false })).toBe('Registration not verified');
    expect(registrationLine({ register: null, number: null, verified: true })).toBe('Registration verified');
  });
});

describe.each(BACKENDS)('doctor registration on %s', (backend) => {
  let t: TestApp;
  let tdb: TestDb;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t, tdb } = fixture));

  const meOf = async (token: string) => (await t.app.inject({ method: 'GET', url: '/doctor/me', headers: bearer(token) })).json();
  const ask = (token: string, email: string) =>
    t.app.inject({ method: 'POST', url: '/doctor/requestPatient', headers: bearer(token), payload: { email } });

  it.each([
    [{ register: 'GMC', number: '123' }, `registration.number: ${REGISTRATION_NUMBER_MESSAGES.GMC}`],
    [{ register: 'NPI', number: '1234567890' }, `registration.number: ${NPI_CHECK_DIGIT_MESSAGE}`],
    [{ register: 'AHPRA', number: '0001234567' }, `registration.number: ${REGISTRATION_NUMBER_MESSAGES.AHPRA}`],
    [{ register: 'NMC', number: '1234567' }, `registration.register: ${REGISTER_REQUIRED}`],
    [undefined, /^registration: /],
  ])('refuses a signup with registration %j (400, nothing written)', async (registration, expected) => {
    const before = await countRows(t.db, 'doctors');
    const res = await t.app.inject({
      method: 'POST',
      url: '/doctor/signup',
      payload: { name: 'Dr Bad Number', email: uniqueEmail('doctor'), password: PASSWORD, registration },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(expected);
    expect(await countRows(t.db, 'doctors')).toBe(before);
  });

  it('stores the registration unverified; the doctor cannot send requests until an operator verifies it', async () => {
    const email = uniqueEmail('doctor');
    const { token } = await signup(
      t.app,
      'doctor',
      { email, registration: { register: 'NPI', number: ' 1234567893 ' } },
      { registrationVerified: false },
    );
    expect((await meOf(token)).doctor.registration).toEqual({ register: 'NPI', number: '1234567893', verified: false });
    const patient = await signup(t.app, 'patient');

    const denied = await ask(token, patient.email);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: REGISTRATION_UNVERIFIED });
    expect(await countRows(t.db, 'connection_requests')).toBe(0);

    const result = await verifyDoctorRegistration(t.db.db, { doctor: email.toUpperCase(), by: 'operator', at: t.clock.now() });
    expect(result).toMatchObject({ outcome: 'verified', registration: 'NPI 1234567893' });
    const [row] = await t.db.db
      .select({ at: doctors.registrationVerifiedAt, by: doctors.registrationVerifiedBy, id: doctors.id })
      .from(doctors)
      .where(eq(doctors.email, email));
    expect(row).toMatchObject({ at: t.clock.now(), by: 'operator' });
    const events = await t.db.db
      .select({ actorRole: auditLog.actorRole, entity: auditLog.entity, entityId: auditLog.entityId })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'registration-verified'), eq(auditLog.actorId, row.id)));
    expect(events).toEqual([{ actorRole: 'doctor', entity: 'account', entityId: row.id }]);
    expect((await meOf(token)).doctor.registration.verified).toBe(true);

    expect((await ask(token, patient.email)).statusCode).toBe(201);
    // The patient sees the doctor's registration on the request, then on their list of doctors.
    const [received] = (
      await t.app.inject({ method: 'GET', url: '/patient/receivedRequests', headers: bearer(patient.token) })
    ).json();
    expect(received.doctor.registration).toEqual({ register: 'NPI', number: '1234567893', verified: true });
    const accepted = await t.app.inject({
      method: 'PATCH',
      url: `/patient/responseRequest/${received._id}`,
      headers: bearer(patient.token),
      payload: { action: 'accept' },
    });
    expect(accepted.statusCode).toBe(200);
    const me = (await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(patient.token) })).json();
    expect(me.patient.assignedDoctors).toEqual([
      expect.objectContaining({ registration: { register: 'NPI', number: '1234567893', verified: true } }),
    ]);

    // Verifying again changes nothing and records nothing more.
    expect(await verifyDoctorRegistration(t.db.db, { doctor: email, by: 'operator', at: new Date() })).toMatchObject({
      outcome: 'already-verified',
    });
  });

  it('shows a patient an unverified doctor as not verified, without the number, on the request the patient sent', async () => {
    const doctor = await signup(t.app, 'doctor', {}, { registrationVerified: false });
    const patient = await signup(t.app, 'patient');
    const sent = await t.app.inject({
      method: 'POST',
      url: '/patient/requestDoctor',
      headers: bearer(patient.token),
      payload: { email: doctor.email },
    });
    expect(sent.statusCode).toBe(201);
    const [request] = (
      await t.app.inject({ method: 'GET', url: '/patient/sentRequests', headers: bearer(patient.token) })
    ).json();
    // The number is withheld with the name until the doctor accepts (it names them in a public register).
    expect(request.doctor).toEqual({
      name: '',
      email: doctor.email,
      registration: { register: null, number: null, verified: false },
    });
    expect(registrationLine(request.doctor.registration)).toBe('Registration not verified');
    const [received] = (
      await t.app.inject({ method: 'GET', url: '/doctor/receivedRequests', headers: bearer(doctor.token) })
    ).json();
    expect(received.doctor.registration).toEqual({ register: 'GMC', number: '1234567', verified: false });
  });

  it('answers unknown for an e-mail no doctor has', async () => {
    const result = await verifyDoctorRegistration(t.db.db, { doctor: uniqueEmail('nobody'), by: 'operator', at: new Date() });
    expect(result).toEqual({ outcome: 'unknown' });
    expect(describeVerification('nobody@example.com', result)).toEqual({
      ok: false,
      text: 'No doctor account has the e-mail nobody@example.com.',
    });
  });

  it("prints the operator command for a new doctor in the embedded default's log, and nothing for a patient", async () => {
    const lines: string[] = [];
    const logged = await createTestApp(tdb.adapter, { LOG_LEVEL: 'info' }, undefined, (line) => lines.push(line));
    try {
      const doctor = await signup(logged.app, 'doctor', {}, { registrationVerified: false, twoFactor: false });
      const patient = await signup(logged.app, 'patient');
      const commands = lines.filter((l) => l.includes('verify-doctor'));
      expect(commands).toHaveLength(1);
      // No e-mail in a log line: the doctor is named by account id, which the command takes.
      const [, id] = /npm run operator -- verify-doctor (\S+)"/.exec(commands[0])!;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(lines.join('\n')).not.toContain(doctor.email);
      expect(lines.join('\n')).not.toContain(patient.email);
      const verified = await verifyDoctorRegistration(t.db.db, { doctor: id, by: 'operator', at: new Date() });
      expect(verified.outcome).toBe('verified');
      expect(describeVerification(id, verified).text).toMatch(
        new RegExp(`^Verified the registration GMC 1234567 of doctor ${id} `),
      );
      const otherId = id.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      expect(
        describeVerification(
          otherId,
          await verifyDoctorRegistration(t.db.db, { doctor: otherId, by: 'operator', at: new Date() }),
        ),
      ).toEqual({
        ok: false,
        text: `No doctor account has the id ${otherId}.`,
      });
    } finally {
      await logged.app.close();
    }
  });

  it('lets any doctor send requests with DOCTOR_VERIFICATION=off', async () => {
    const off = await createTestApp(tdb.adapter, { DOCTOR_VERIFICATION: 'off' });
    try {
      const doctor = await signup(off.app, 'doctor', {}, { registrationVerified: false });
      const patient = await signup(off.app, 'patient');
      const res = await off.app.inject({
        method: 'POST',
        url: '/doctor/requestPatient',
        headers: bearer(doctor.token),
        payload: { email: patient.email },
      });
      expect(res.statusCode).toBe(201);
    } finally {
      await off.app.close();
    }
  });

  // PGlite: the command is run below, on a database of its own (this file's app holds this one open).
  (backend === 'postgres' ? it : it.skip)('verifies through the operator command on this database', async () => {
    const email = uniqueEmail('doctor');
    await signup(t.app, 'doctor', { email }, { registrationVerified: false });
    const result = await verifyDoctor({ databaseUrl: tdb.adapter.connectionString!, dataDir: '' }, email);
    expect(describeVerification(email, result).text).toMatch(/^Verified the registration GMC 1234567 of doctor /);
  });
});

describe('npm run operator -- verify-doctor on the embedded database', () => {
  jest.setTimeout(120_000);
  const API_DIR = path.resolve(__dirname, '../../..');
  const cli = (dataDir: string, ...args: string[]) =>
    spawnSync(process.execPath, ['-r', 'ts-node/register', path.join(API_DIR, 'src/ops/cli.ts'), ...args], {
      cwd: API_DIR,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        TS_NODE_TRANSPILE_ONLY: 'true',
        TS_NODE_PROJECT: path.join(API_DIR, 'tsconfig.json'),
        TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'CommonJS', moduleResolution: 'Node10' }),
      },
    });

  it('verifies the doctor with the database closed, and refuses an unknown e-mail with exit code 1', async () => {
    const tdb = await createTestDb('pglite');
    const t = await createTestApp(tdb.adapter);
    const email = uniqueEmail('doctor');
    try {
      await signup(t.app, 'doctor', { email }, { registrationVerified: false });
    } finally {
      await t.app.close();
      await tdb.adapter.close();
    }
    try {
      const ok = cli(tdb.dataDir!, 'verify-doctor', email);
      expect(ok.stderr).toBe('');
      expect(ok.stdout).toMatch(new RegExp(`^Verified the registration GMC 1234567 of doctor ${email} at `));
      expect(ok.status).toBe(0);
      const unknown = cli(tdb.dataDir!, 'verify-doctor', 'nobody@example.com');
      expect(unknown.stderr.trim()).toBe('No doctor account has the e-mail nobody@example.com.');
      expect(unknown.status).toBe(1);
    } finally {
      await fs.promises.rm(tdb.dataDir!, { recursive: true, force: true });
    }
  });

  it('asks the running api on its operator socket while the api holds the database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-verify-doctor-'));
    const db = await openDatabase({ dataDir });
    await db.migrate();
    const t = await createTestApp(db, { DATA_DIR: dataDir });
    // as server.ts does
    const socket = await serveSnapshots(
      dataDir,
      () => db.dumpDataDir!(),
      { info: () => undefined, error: () => undefined },
      ({ doctor }) => verifyDoctorRegistration(db.db, { doctor, by: 'operator', at: t.clock.now() }),
    );
    try {
      const email = uniqueEmail('doctor');
      const { token } = await signup(t.app, 'doctor', { email }, { registrationVerified: false });
      const result = await verifyDoctor({ dataDir, databaseUrl: undefined }, email);
      expect(result).toMatchObject({ outcome: 'verified', registration: 'GMC 1234567' });
      const me = (await t.app.inject({ method: 'GET', url: '/doctor/me', headers: bearer(token) })).json();
      expect(me.doctor.registration.verified).toBe(true);
      expect((await verifyDoctor({ dataDir, databaseUrl: undefined }, 'nobody@example.com')).outcome).toBe('unknown');
    } finally {
      await socket.close();
      await t.app.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
