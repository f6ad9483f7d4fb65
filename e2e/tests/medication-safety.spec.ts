import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { API_URL } from '../stack';
import { auth, connectedPair, logIn, logOut } from './helpers';

/*
 * Issue 13's Done-when for the prescribing form: a stop needs a reason that the access history
 * keeps; a combination product alerts on its ingredient; an interaction with a prescription on file.
 */

const REASON = 'Tolerated a supervised amoxicillin challenge in 2024';

/** A prescription written through the api: what is on file before the form is opened. */
async function onFile(
  request: APIRequestContext,
  doctor: string,
  patientId: string,
  prescribedDrug: string,
  allergies: string[],
) {
  const res = await request.post(`${API_URL}/prescription/${patientId}`, {
    headers: auth(doctor),
    data: { prescribedDrug, dosage: '1 tablet', administrationRoute: 'Oral', dosageFrequency: 'Once a day', allergies },
  });
  expect(res.status()).toBe(201);
}

async function openPrescriptionFor(page: Page, name: string) {
  await page.goto('/create-prescription');
  await page.getByRole('list', { name: 'Assigned patients' }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name: `New prescription for ${name}` })).toBeVisible();
}

async function fillDose(page: Page) {
  await page.getByLabel('Dosage').fill('500 mg');
  await page.getByLabel('Route').fill('Oral');
  await page.getByLabel('Frequency').fill('Three times a day');
}

test('"amoxicilin" for a penicillin anaphylaxis is stopped; the reason given is in both access histories', async ({
  page,
  request,
}) => {
  const { doctor, doctorEmail, patientEmail, patientId } = await connectedPair(request, {
    doctor: { name: 'Dr. Mira Osei' },
    patient: { name: 'Lena Brandt', DOB: '1975-06-02' },
  });
  // The allergy note on file reads as an unconfirmed allergy; with anaphylaxis it is still a stop.
  await onFile(request, doctor, patientId, 'Paracetamol', ['Penicillin (anaphylaxis)']);

  await page.goto('/');
  await logIn(page, 'doctor', doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await openPrescriptionFor(page, 'Lena Brandt');
  await page.getByLabel('Drug').fill('amoxicilin');
  await fillDose(page);
  const stop = page.getByRole('alert', { name: 'Stop alerts' });
  await expect(stop).toContainText('Stop:');
  await expect(stop).toContainText('read as amoxicillin');
  await expect(stop).toContainText(/penicillin allergy with anaphylaxis/i);
  const finish = page.getByRole('button', { name: 'Finish' });
  await expect(finish).toBeDisabled();
  await page.getByLabel('Reason to override').fill(REASON);
  await expect(finish).toBeEnabled();
  await finish.click();
  await expect(page).toHaveURL(/\/prescription$/);
  await expect(page.getByRole('list', { name: 'Prescriptions' })).toContainText('amoxicilin');

  // The doctor's own access history keeps the decision …
  await page.goto('/doctor/access-history');
  const doctorHistory = page.getByRole('table', { name: 'Access history' });
  await expect(doctorHistory.getByRole('row', { name: /overrode a stop alert to create a prescription/ })).toContainText(
    `Reason: ${REASON}`,
  );
  await logOut(page);

  // … and so does the patient's.
  await logIn(page, 'patient', patientEmail);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await page.goto('/patient/access-history');
  const row = page
    .getByRole('table', { name: 'Access history' })
    .getByRole('row', { name: /overrode a stop alert to create a prescription/ });
  await expect(row).toContainText('Dr. Mira Osei');
  await expect(row).toContainText(`Reason: ${REASON}`);
  await expect(row).toContainText('Penicillin');
});

test('co-codamol alerts against a codeine allergy; ibuprofen shows the interaction with warfarin on file', async ({
  page,
  request,
}) => {
  const { doctor, doctorEmail, patientId } = await connectedPair(request, {
    doctor: { name: 'Dr. Tomas Lind' },
    patient: { name: 'Omar Haddad', DOB: '1958-11-20' },
  });
  await onFile(request, doctor, patientId, 'Warfarin 5 mg', ['Codeine (rash)']);

  await page.goto('/');
  await logIn(page, 'doctor', doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await openPrescriptionFor(page, 'Omar Haddad');
  const alerts = page.getByRole('region', { name: 'Medication alerts' });

  await page.getByLabel('Drug').fill('co-codamol');
  // "Co-codamol (read as codeine + paracetamol) contains codeine; …"
  await expect(alerts).toContainText(/co-codamol\b.*\bcontains codeine/i);
  // a rash is no severe reaction: a warning, and Finish is not blocked
  await expect(page.getByRole('alert', { name: 'Stop alerts' })).toHaveCount(0);

  await page.getByLabel('Drug').fill('Ibuprofen');
  await expect(alerts.getByLabel('Warning alerts')).toContainText(/ibuprofen.*warfarin/i);
  await expect(alerts).toContainText(/bleeding/i);
  await fillDose(page);
  await expect(page.getByLabel('Reason to override')).toHaveCount(0);
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/prescription$/);
  await expect(page.getByRole('list', { name: 'Prescriptions' })).toContainText('Ibuprofen');
});
