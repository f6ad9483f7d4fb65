import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { API_URL } from '../stack';
import { auth, connectedPair, logIn, logOut } from './helpers';

const PEOPLE = {
  doctor: { name: 'Dr. Amara Osei' },
  patient: { name: 'Lena Vogt', DOB: '1979-06-02', gender: 'Female', occupation: 'Baker' },
};

/** Signs in and waits for the dashboard (the session is stored), then opens `path`. */
async function signInTo(page: Page, role: 'patient' | 'doctor', email: string, path: string) {
  await logIn(page, role, email);
  await expect(page).toHaveURL(new RegExp(`/${role}/dashboard$`));
  await page.goto(path);
}

const allergyList = (page: Page) => page.getByRole('region', { name: 'Allergies', exact: true });
const entryOf = (page: Page, text: string) =>
  allergyList(page).getByRole('list', { name: 'Allergy entries' }).getByRole('listitem').filter({ hasText: text });

/** A record with only a free-text allergy note, written by the doctor through the api. */
async function recordWithAllergyNote(request: APIRequestContext, doctor: string, patientId: string, allergies: string) {
  const res = await request.post(`${API_URL}/medicalhistory/${patientId}`, {
    headers: auth(doctor),
    data: {
      medicalHistory: { title: 'Sore throat', biodata: { modeOfAdmission: 'Outpatient' }, systemicHistory: {}, allergies },
      examination: { generalPhysicalExamination: {} },
      investigations: {},
      treatment: {},
    },
  });
  expect(res.status()).toBe(201);
}

/** Every alert of the prescribing check for amoxicillin, as text (either alert shape of the contract). */
async function amoxicillinAlerts(request: APIRequestContext, doctor: string, patientId: string): Promise<string> {
  const res = await request.get(`${API_URL}/drug-alerts/${patientId}?drug=amoxicillin`, { headers: auth(doctor) });
  expect(res.status()).toBe(200);
  return JSON.stringify((await res.json()).alerts).toLowerCase();
}

test('a doctor records a confirmed penicillin anaphylaxis; the patient sees it and reports one, unconfirmed (390 px)', async ({
  page,
  request,
}) => {
  const { doctorEmail, patientEmail, patientId } = await connectedPair(request, PEOPLE);
  await page.goto('/');
  await signInTo(page, 'doctor', doctorEmail, `/doctor/all-medical-records?patientId=${patientId}`);
  await expect(allergyList(page).getByText('No allergy recorded')).toBeVisible();

  await allergyList(page).getByRole('button', { name: 'Add an allergy' }).click();
  const form = page.getByRole('form', { name: 'Add an allergy' });
  await form.getByLabel('Substance').fill('Penicillin');
  await form.getByLabel('Criticality').selectOption('high');
  await form.getByRole('button', { name: 'Add a reaction' }).click();
  await form.getByLabel('Manifestation').fill('Anaphylaxis');
  await form.getByLabel('Severity').selectOption('severe');
  await expect(form.getByLabel('Verification status')).toHaveValue('confirmed');
  await form.getByRole('button', { name: 'Save allergy' }).click();
  await expect(form).toBeHidden();
  const penicillin = entryOf(page, 'Penicillin');
  await expect(penicillin).toContainText('confirmed');
  await expect(penicillin).toContainText('Anaphylaxis (severe)');
  await expect(penicillin).toContainText('Recorded by Dr. Amara Osei');
  await logOut(page);

  // The patient, on a phone.
  await signInTo(page, 'patient', patientEmail, '/patient/all-medical-records');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(entryOf(page, 'Penicillin')).toContainText('confirmed');
  await expect(entryOf(page, 'Penicillin')).toContainText('Anaphylaxis (severe)');
  await expect(allergyList(page).getByRole('button', { name: 'Refute (delabel)' })).toHaveCount(0);

  await allergyList(page).getByRole('button', { name: 'Report an allergy' }).click();
  const report = page.getByRole('form', { name: 'Report an allergy' });
  await expect(report.getByLabel('Verification status')).toHaveCount(0);
  await report.getByLabel('Substance').fill('Peanuts');
  await report.getByLabel('Category').selectOption('food');
  await report.getByRole('button', { name: 'Add a reaction' }).click();
  await report.getByLabel('Manifestation').fill('Hives');
  await report.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByText('Reported. It stays unconfirmed until your doctor reviews it.')).toBeVisible();
  await expect(entryOf(page, 'Peanuts')).toContainText('unconfirmed');
  await expect(entryOf(page, 'Peanuts')).toContainText('(patient)');
  // nothing wider than the phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('a doctor refutes a free-text "penicillin" note of a record: the patient sees it refuted, and amoxicillin raises nothing from it', async ({
  page,
  request,
}) => {
  const { doctor, doctorEmail, patientEmail, patientId } = await connectedPair(request, PEOPLE);
  await recordWithAllergyNote(request, doctor, patientId, 'penicillin');
  // the note counts as an unconfirmed allergy until reviewed
  expect(await amoxicillinAlerts(request, doctor, patientId)).toContain('penicillin');

  await page.goto('/');
  await signInTo(page, 'doctor', doctorEmail, `/doctor/all-medical-records?patientId=${patientId}`);
  const note = entryOf(page, 'not yet reviewed');
  await expect(note).toContainText('unconfirmed');
  await expect(note).toContainText('“penicillin”');
  await note.getByRole('button', { name: 'Refute (delabel)' }).click();
  // a delabel says why; the note itself stays on the page, verbatim
  await note.getByLabel('Why is it refuted?').fill('Negative oral challenge, March 2026');
  await note.getByRole('button', { name: 'Refute', exact: true }).click();
  await expect(allergyList(page).getByText('not yet reviewed')).toHaveCount(0);
  await expect(entryOf(page, 'penicillin')).toContainText('Why refuted: Negative oral challenge, March 2026');
  await expect(page.getByRole('region', { name: 'Allergy notes as written' })).toContainText('“penicillin”');
  await expect(entryOf(page, 'penicillin')).toContainText('refuted');

  expect(await amoxicillinAlerts(request, doctor, patientId)).not.toContain('penicillin');

  await logOut(page);
  await signInTo(page, 'patient', patientEmail, '/patient/all-medical-records');
  await expect(entryOf(page, 'penicillin')).toContainText('refuted');
});
