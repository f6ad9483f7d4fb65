import { startFakeApi } from '../../test-support/fake-api';
import { login } from './auth';
import { MFA_REQUIRED, OVERRIDE_REQUIRED_ERROR, type MedicationAlert } from '@careloop/shared-contracts';
import { api, configureApi, serverError } from './client';
import { useMfaGate } from './mfa';
import { overrideRequiredAlerts } from './records';
import { idleSignedOutRole, idleSignOutNotice } from './signed-out';
import { createQueryClient } from './query';
import { useSession } from './session';

const ALERT: MedicationAlert = {
  kind: 'allergy',
  severity: 'stop',
  substance: 'penicillin',
  matchedText: 'amoxicillin',
  message: 'Allergy to penicillin: amoxicillin is a penicillin',
  source: 'BNF',
};

let fake: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  fake = await startFakeApi({
    'GET /patient/me': { status: 200, body: { patient: { name: 'Ada' }, profileUrl: null } },
    'PATCH /patient/me': { status: 200, body: { patient: { name: 'Ada' }, profileUrl: null, token: 'fresh' } },
    'GET /doctor/me': { status: 401, body: { error: 'Unauthorized' } },
    'GET /patient/sessions': { status: 401, body: { error: 'Session expired' } },
    'POST /patient/login': { status: 401, body: { error: 'Invalid e-mail or password' } },
    'POST /prescription/p1': { status: 409, body: { error: OVERRIDE_REQUIRED_ERROR, alerts: [ALERT] } },
    'GET /doctor/patients': { status: 403, body: { error: MFA_REQUIRED } },
  });
  configureApi(`${fake.url}/`);
});
afterAll(() => fake.close());
beforeEach(() => {
  localStorage.clear();
  fake.requests.length = 0;
  useSession.getState().logout();
});

test('calls go to the configured api with the bearer token', async () => {
  useSession.getState().login('tok-1', 'patient');
  await api().get('patient/me').json();
  expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/patient/me' });
  expect(fake.requests[0].headers.authorization).toBe('Bearer tok-1');
});

test('no Authorization header without a session', async () => {
  await api().get('patient/me').json();
  expect(fake.requests[0].headers.authorization).toBeUndefined();
});

test('a token in an answer replaces the stored one', async () => {
  useSession.getState().login('old', 'patient');
  await api()
    .patch('patient/me', { json: { name: 'Ada' } })
    .json();
  expect(useSession.getState().token).toBe('fresh');
  expect(localStorage.getItem('token')).toBe('fresh');
});

test('a 401 to the current session ends it locally', async () => {
  useSession.getState().login('revoked', 'doctor');
  await expect(api().get('doctor/me').json()).rejects.toThrow();
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(localStorage.getItem('token')).toBeNull();
  expect(idleSignedOutRole()).toBe('doctor');
  expect(idleSignOutNotice()).toBe('You were signed out: this session was ended. Please sign in again.');
});

test('a 401 "Session expired" ends it and sends to the sign-in page with the reason', async () => {
  useSession.getState().login('ran-out', 'patient');
  await expect(api().get('patient/sessions').json()).rejects.toThrow();
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(idleSignedOutRole()).toBe('patient');
  expect(idleSignOutNotice()).toBe('Your session expired. Please sign in again.');
});

test("serverError reads the api's error field", async () => {
  const err = await login('patient', { email: 'a@b.co', password: 'x' }).catch((e: unknown) => e);
  expect(await serverError(err)).toBe('Invalid e-mail or password');
  expect(await serverError(new Error('plain'))).toBeUndefined();
});

test('query defaults follow SPEC §9: 3 retries, doubling delay capped at 30 s, 5 minutes of cache', () => {
  const { queries } = createQueryClient().getDefaultOptions();
  const retry = queries!.retry as (n: number, e: unknown) => boolean;
  expect([0, 1, 2, 3].map((n) => retry(n, new Error('network')))).toEqual([true, true, true, false]);
  const delay = queries!.retryDelay as (n: number) => number;
  expect([0, 1, 2, 5, 10].map((n) => delay(n))).toEqual([1000, 2000, 4000, 30000, 30000]);
  expect(queries!.gcTime).toBe(300000);
});

// An error answer's body is read once, by ky (into HTTPError.data): what the doctor must see comes from there.
test('a 409 override-required answer gives the form its alerts', async () => {
  useSession.getState().login('tok-d', 'doctor');
  const err = await api()
    .post('prescription/p1', { json: {} })
    .json()
    .catch((e: unknown) => e);
  expect(await overrideRequiredAlerts(err)).toEqual([ALERT]);
  expect(await serverError(err)).toBe(OVERRIDE_REQUIRED_ERROR);
});

test('a 403 MFA_REQUIRED answer raises the two-factor gate, and the caller still reads the error', async () => {
  useSession.getState().login('tok-d', 'doctor');
  useMfaGate.getState().setRequired(false);
  const err = await api()
    .get('doctor/patients')
    .json()
    .catch((e: unknown) => e);
  expect(useMfaGate.getState().required).toBe(true);
  expect(await serverError(err)).toBe(MFA_REQUIRED);
});
