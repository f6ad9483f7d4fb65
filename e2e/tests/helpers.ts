import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { API_URL } from '../stack';
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

export async function logIn(page: Page, role: 'patient' | 'doctor', email: string, password = PASSWORD) {
  await openMenu(page, 'Sign In', role === 'patient' ? 'As Patient' : 'As Doctor');
  await expect(page).toHaveURL(new RegExp(`/login/${role}$`));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
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

/**
 * A password signup through the api; its session token. VERIFIED by default (the link from the
 * .eml is followed); `{ verified: false }` for tests of unverified accounts.
 */
export async function signUpVia(
  request: APIRequestContext,
  role: 'patient' | 'doctor',
  data: { email: string; name: string } & Record<string, unknown>,
  { verified = true }: { verified?: boolean } = {},
): Promise<string> {
  const res = await request.post(`${API_URL}/${role}/signup`, { data: { password: PASSWORD, ...data } });
  expect(res.status()).toBe(201);
  if (verified) await verifyByMail(request, role, data.email);
  return (await res.json()).token as string;
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
