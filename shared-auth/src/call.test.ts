import { ZodError } from 'zod';
import { startFakeApi } from '../../test-support/fake-api';
import { prescription as fixture } from '../../test-support/fixtures';
import { call, configureApi, endpointUrl } from './client';
import { useSession } from './session';

const PRESCRIPTION_ID = '3f0c2a52-1d7e-4a0b-9a55-5b0d2e7f8a11';
const PATIENT_ID = '8e1b7c1d-2f3a-4c5d-8e9f-0a1b2c3d4e5f';
const prescription = fixture({ _id: PRESCRIPTION_ID, patientId: PATIENT_ID });

let fake: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  fake = await startFakeApi({
    [`GET /prescription/${PRESCRIPTION_ID}`]: { status: 200, body: prescription },
    // Not a prescription: no drug, and an _id that is a number.
    [`GET /prescription/${PATIENT_ID}`]: { status: 200, body: { _id: 7 } },
    'GET /medicalhistories': { status: 200, body: { items: [], page: 1, limit: 10, total: 0 } },
    'DELETE /doctor/reminders/a%20b': { status: 200, body: { message: 'Reminder cancelled' } },
    'POST /patient/auth/exchange': { status: 200, body: { token: 'other-account', role: 'patient' } },
    // SPEC §7 "token or error": an answer without the token is the form's to explain
    'POST /patient/complete-profile': { status: 200, body: { message: 'Profile completed' } },
    'POST /doctor/complete-profile': { status: 200, body: { token: 42 } },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  useSession.getState().logout();
});

test("builds the path from the endpoint's path and params, with the query", async () => {
  await call('listMedicalRecords', { query: { page: 1, limit: 10, patientId: undefined } });
  expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/medicalhistories?page=1&limit=10' });

  expect(await call('cancelReminder', { params: { id: 'a b' } })).toEqual({ message: 'Reminder cancelled' });
  expect(fake.requests[1]).toMatchObject({ method: 'DELETE', path: '/doctor/reminders/a%20b' });
});

test('answers a response that matches the schema', async () => {
  useSession.getState().login('tok-1', 'patient');
  const answer = await call('getPrescription', { params: { id: PRESCRIPTION_ID } });
  expect(answer.prescribedDrug).toBe('Amoxicillin');
  expect(fake.requests[0].headers.authorization).toBe('Bearer tok-1');
});

test('rejects a response that does not match the schema (development and tests)', async () => {
  await expect(call('getPrescription', { params: { id: PATIENT_ID } })).rejects.toBeInstanceOf(ZodError);
});

test('refuses to call a path with a parameter missing', async () => {
  await expect(call('getPrescription', { params: { id: '' } })).rejects.toThrow('path parameter id is missing');
  expect(fake.requests).toHaveLength(0);
});

test('endpointUrl: the absolute URL of an endpoint the browser opens itself', () => {
  configureApi('https://api.example.org/');
  expect(endpointUrl('patientGoogleSignIn')).toBe('https://api.example.org/patient/auth/google');
  configureApi(fake.url);
});

test('anonymous: no bearer token is sent and a token in the answer does not replace the session', async () => {
  useSession.getState().login('tok-1', 'patient');
  const answer = await call('patientExchangeHandoff', { body: { code: 'c' }, anonymous: true });
  expect(answer).toEqual({ token: 'other-account', role: 'patient' });
  expect(fake.requests[0].headers.authorization).toBeUndefined();
  expect(useSession.getState().token).toBe('tok-1');
});

test('partialAnswer: any field of the answer may be missing, none may be wrong', async () => {
  expect(await call('patientCompleteProfile', { body: {} as never, partialAnswer: true })).toEqual({});
  await expect(call('doctorCompleteProfile', { body: {} as never, partialAnswer: true })).rejects.toBeInstanceOf(ZodError);
  await expect(call('patientCompleteProfile', { body: {} as never })).rejects.toBeInstanceOf(ZodError);
});
