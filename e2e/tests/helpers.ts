import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { API_URL } from '../stack';

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

export const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * A doctor and a patient who are connected (signed up, requested and accepted through the api),
 * with their e-mails, session tokens and the patient's id.
 */
export async function connectedPair(
  request: APIRequestContext,
  people: { doctor: { name: string }; patient: { name: string; DOB?: string; gender?: string; occupation?: string } },
) {
  const doctorEmail = uniqueEmail('doctor');
  const patientEmail = uniqueEmail('patient');
  const signUp = async (role: 'doctor' | 'patient', data: object) =>
    (await (await request.post(`${API_URL}/${role}/signup`, { data: { ...data, password: PASSWORD } })).json()).token as string;
  const doctor = await signUp('doctor', { ...people.doctor, email: doctorEmail });
  const patient = await signUp('patient', { ...people.patient, email: patientEmail });
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
