import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { API_URL, ROOT } from '../stack';
import { VERIFY_SUBJECT, waitForEmail } from './mail';

let n = 0;
export const uniqueEmail = (who: string) => `${who}-${Date.now()}-${n++}@example.com`;
export const PASSWORD = 'correct horse battery';

export async function openMenu(page: Page, menu: 'Sign In' | 'Create an account', item: 'As Patient' | 'As Doctor') {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(menu) })
    .click();
  await page.getByRole('list', { name: menu }).getByRole('link', { name: item }).click();
}

/**
 * Signs in through the login page. An account enrolled here (signUpVia, enrolTwoFactor) also
 * passes the code step with a fresh code of its authenticator.
 */
export async function logIn(page: Page, role: 'patient' | 'doctor', email: string, password = PASSWORD) {
  await openMenu(page, 'Sign In', role === 'patient' ? 'As Patient' : 'As Doctor');
  await expect(page).toHaveURL(new RegExp(`/login/${role}$`));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await passCodeStep(page, email);
}

/** After a right password: the code step, for an account with an authenticator here (else nothing). */
export async function passCodeStep(page: Page, email: string) {
  if (!authenticators.has(email.toLowerCase())) return;
  // Not raced against any alert: the sign-in page may already show one (why the last session
  // ended) before the code step appears; a refused password shows no code step at all.
  const codeField = page.getByLabel('6-digit code from your authenticator app');
  if (
    !(await codeField.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    ))
  )
    return;
  await codeField.fill(await freshTotpCode(email));
  await page.getByRole('button', { name: 'Verify' }).click();
}

/**
 * Turns two-factor on through the set-up page the app sent the user to (a doctor without it):
 * scans nothing, types the shown key's code, saves the recovery codes and continues. Answers them.
 */
export async function enrolOnPage(page: Page, email: string): Promise<string[]> {
  await expect(page).toHaveURL(/\/enable2fa$/);
  await page.getByRole('switch', { name: 'Enable two-factor authentication' }).check();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  authenticators.set(email.toLowerCase(), { secret, lastStep: -Infinity });
  await page.getByLabel('Verification code').fill(await freshTotpCode(email));
  const codes = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  await page.getByLabel('I have saved these codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return recovery;
}

/** A login through the api (with the code step for an account enrolled here); its session token. */
export async function apiLogIn(request: APIRequestContext, role: 'patient' | 'doctor', email: string, password = PASSWORD) {
  const res = await request.post(`${API_URL}/${role}/login`, { data: { email, password } });
  expect(res.status()).toBe(200);
  const body = await res.json();
  if (!body.twoFactorRequired) return body.token as string;
  const idKey = role === 'patient' ? 'patientId' : 'doctorId';
  const step = await request.post(`${API_URL}/${role}/verify2FA`, {
    data: { [idKey]: body[idKey], code: await freshTotpCode(email) },
  });
  expect(step.status()).toBe(200);
  return (await step.json()).token as string;
}

// Two-factor in the suite: doctors must have it on (REQUIRE_MFA_FOR's default) before any patient
// data, so signUpVia enrols them. The secret of each enrolled e-mail is kept here, with the last
// time step a code was made for: the api refuses a step already used (TOTP replay protection).
const STEP_S = 30;
const authenticators = new Map<string, { secret: string; lastStep: number }>();

const codeOf = (secret: string, step: number) =>
  OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: STEP_S,
    timestamp: step * STEP_S * 1000,
  });

/** Notes an authenticator set up outside these helpers (e.g. through the set-up page). */
export function rememberAuthenticator(email: string, secret: string, lastStep = Math.floor(Date.now() / 1000 / STEP_S)) {
  authenticators.set(email.toLowerCase(), { secret, lastStep });
}

/**
 * A code the api accepts now and has not seen: of a step within ±1 of now (the api's window) that
 * is later than any used; waits for the next step when all are used.
 */
export async function freshTotpCode(email: string): Promise<string> {
  const a = authenticators.get(email.toLowerCase());
  if (!a) throw new Error(`no authenticator enrolled for ${email}`);
  for (;;) {
    const now = Math.floor(Date.now() / 1000 / STEP_S);
    let step = Math.max(a.lastStep + 1, now - 1);
    // The previous step leaves the window when this one ends: not in its last 5 seconds.
    if (step === now - 1 && (now + 1) * STEP_S * 1000 - Date.now() < 5000) step = now;
    if (step <= now + 1) {
      a.lastStep = step;
      return codeOf(a.secret, step);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Turns two-factor on through the api (set-up secret, then a code); answers the recovery codes. */
export async function enrolTwoFactor(request: APIRequestContext, role: 'patient' | 'doctor', email: string, token: string) {
  const setup = await request.get(`${API_URL}/${role}/qrCode`, { headers: auth(token) });
  expect(setup.status()).toBe(200);
  authenticators.set(email.toLowerCase(), { secret: (await setup.json()).secret as string, lastStep: -Infinity });
  const res = await request.post(`${API_URL}/${role}/verifyqrCode`, {
    headers: auth(token),
    data: { code: await freshTotpCode(email) },
  });
  const body = await res.json();
  expect(body.verify).toBe(true);
  return body.recoveryCodes as string[];
}

export async function logOut(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/**
 * The app's own page is there: `/` and the logins first show a static copy with the same heading
 * (scripts/prerender.mjs), so a visible heading alone does not say the app and its remote loaded.
 */
export const appTookOver = (page: Page) => expect(page.locator('#prerendered')).toHaveCount(0);

export const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The token of the verification link in the newest mail to `email` (the api's .eml outbox). */
export async function verificationToken(role: 'patient' | 'doctor', email: string): Promise<string> {
  const mail = await waitForEmail(email, VERIFY_SUBJECT);
  const found = new RegExp(`/${role}/verify-email/([A-Za-z0-9_-]+)`).exec(mail);
  if (!found) throw new Error(`no verification link in the mail to ${email}`);
  return found[1];
}

/**
 * Follows the mailed verification link as its owner would: the token from the .eml, posted to the
 * api with the account's password (PASSWORD unless told).
 */
export async function verifyByMail(request: APIRequestContext, role: 'patient' | 'doctor', email: string, password = PASSWORD) {
  const res = await request.post(`${API_URL}/${role}/verify-email/${await verificationToken(role, email)}`, {
    data: { password },
  });
  expect(res.status()).toBe(200);
}

/** The professional registration a test doctor signs up with unless told. */
export const TEST_REGISTRATION = { register: 'GMC', number: '1234567' } as const;
/** What a role's signup needs besides name, e-mail and password: a doctor's registration. */
export const signupExtras = (role: 'patient' | 'doctor') => (role === 'doctor' ? { registration: TEST_REGISTRATION } : {});

/**
 * Verifies a doctor's professional registration as the operator does: the operator command itself
 * (`npm run operator -- verify-doctor`, built at api/dist), on the suite's api data directory; the
 * running api does the work on its operator socket.
 */
export function operatorVerifyDoctor(email: string): string {
  const dataDir = process.env.CARELOOP_E2E_DATA_DIR;
  if (!dataDir) throw new Error('CARELOOP_E2E_DATA_DIR is unset (global-setup sets it)');
  const run = spawnSync(process.execPath, [join(ROOT, 'api/dist/ops/cli.js'), 'verify-doctor', email], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`verify-doctor ${email} failed (${run.status}): ${run.stderr}`);
  return run.stdout;
}

/**
 * A password signup through the api; its session token. VERIFIED by default (the link from the
 * .eml is followed, and a doctor's registration verified by the operator command); `{ verified: false }`
 * for tests of unverified accounts.
 */
export async function signUpVia(
  request: APIRequestContext,
  role: 'patient' | 'doctor',
  data: { email: string; name: string } & Record<string, unknown>,
  { verified = true, twoFactor = role === 'doctor' }: { verified?: boolean; twoFactor?: boolean } = {},
): Promise<string> {
  const res = await request.post(`${API_URL}/${role}/signup`, { data: { password: PASSWORD, ...signupExtras(role), ...data } });
  expect(res.status()).toBe(201);
  if (verified) await verifyByMail(request, role, data.email);
  if (verified && role === 'doctor') operatorVerifyDoctor(data.email);
  const token = (await res.json()).token as string;
  // Doctors must have two-factor on before any patient data (REQUIRE_MFA_FOR's default).
  if (twoFactor) await enrolTwoFactor(request, role, data.email, token);
  return token;
}

/**
 * A doctor and a patient who are connected (signed up and verified, requested and accepted through the api),
 * with their e-mails, session tokens and the patient's id.
 */
export async function connectedPair(
  request: APIRequestContext,
  people: { doctor: { name: string }; patient: { name: string; DOB?: string; gender?: string; occupation?: string } },
) {
  const doctorEmail = uniqueEmail('doctor');
  const patientEmail = uniqueEmail('patient');
  // Both verified: an unverified patient is invisible to the doctor's request.
  const doctor = await signUpVia(request, 'doctor', { ...people.doctor, email: doctorEmail });
  const patient = await signUpVia(request, 'patient', { ...people.patient, email: patientEmail });
  expect(
    (await request.post(`${API_URL}/doctor/requestPatient`, { headers: auth(doctor), data: { email: patientEmail } })).status(),
  ).toBe(201);
  const [pending] = await (await request.get(`${API_URL}/patient/receivedRequests`, { headers: auth(patient) })).json();
  const accepted = await request.patch(`${API_URL}/patient/responseRequest/${pending._id}`, {
    headers: auth(patient),
    data: { action: 'accept' },
  });
  expect(accepted.status()).toBe(200);
  const patientId = (await (await request.get(`${API_URL}/patient/me`, { headers: auth(patient) })).json()).patient._id as string;
  return { doctorEmail, patientEmail, doctor, patient, patientId };
}

/** Signs up one more patient and connects them to an existing doctor (by the doctor's token). */
export async function connectAnotherPatient(request: APIRequestContext, doctor: string, person: { name: string; DOB?: string }) {
  const email = uniqueEmail('patient');
  // Verified, or the doctor's request would find no one.
  const token = await signUpVia(request, 'patient', { ...person, email });
  expect((await request.post(`${API_URL}/doctor/requestPatient`, { headers: auth(doctor), data: { email } })).status()).toBe(201);
  const [pending] = await (await request.get(`${API_URL}/patient/receivedRequests`, { headers: auth(token) })).json();
  const accepted = await request.patch(`${API_URL}/patient/responseRequest/${pending._id}`, {
    headers: auth(token),
    data: { action: 'accept' },
  });
  expect(accepted.status()).toBe(200);
  const id = (await (await request.get(`${API_URL}/patient/me`, { headers: auth(token) })).json()).patient._id as string;
  return { email, token, id };
}

/** A real, minimal PDF document. */
export const tinyPdf = () =>
  Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  );

/** The patient uploads a PDF through the api, as the upload page does. */
export async function uploadPdf(request: APIRequestContext, patient: { token: string; id: string }, fileName: string) {
  const url = await request.get(
    `${API_URL}/medical-record/${patient.id}?fileType=application/pdf&fileName=${encodeURIComponent(fileName)}`,
    { headers: auth(patient.token) },
  );
  expect(url.status()).toBe(200);
  const { uploadUrl } = await url.json();
  const put = await request.put(uploadUrl, { headers: { 'Content-Type': 'application/pdf' }, data: tinyPdf() });
  expect(put.status()).toBe(200);
}

/**
 * The pages' Content-Security-Policy (scripts/security-headers.mjs, as a header or a meta element)
 * must not break the federated app: the shell loads every remote's remoteEntry.js and chunks,
 * styled-components injects styles, the api is called. Any violation shows as a `securitypolicyviolation` event and a
 * console error; both are collected on every page.
 */
export async function watchForViolations(page: Page) {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) {
      violations.push(`console: ${message.text()}`);
    }
  });
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportCspViolation(t: string): void }).reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI} on ${location.pathname}`,
      );
    });
  });
  return violations;
}
