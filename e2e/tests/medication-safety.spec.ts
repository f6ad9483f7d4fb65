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
  await page.getByLabel('How long').selectOption('days');
  await page.getByLabel('Number of days', { exact: true }).fill('7');
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

/** A record whose only clinical content is its free-text allergy note, written through the api. */
async function recordWithAllergyNote(request: APIRequestContext, doctor: string, patientId: string, allergies: string) {
  const res = await request.post(`${API_URL}/medicalhistory/${patientId}`, {
    headers: auth(doctor),
    data: {
      medicalHistory: { title: 'Chest infection', biodata: { modeOfAdmission: 'Outpatient' }, systemicHistory: {}, allergies },
      examination: { generalPhysicalExamination: {} },
      investigations: {},
      treatment: {},
    },
  });
  expect(res.status()).toBe(201);
}

test('"Penicillin (anaphylaxis). No other allergies." stops co-amoxiclav; an unknown drug is "not recognised"; the override is on the saved prescription for both roles', async ({
  page,
  request,
}) => {
  const { doctor, doctorEmail, patientEmail, patientId } = await connectedPair(request, {
    doctor: { name: 'Dr. Ines Varga' },
    patient: { name: 'Tomasz Wolny', DOB: '1968-09-14' },
  });
  await recordWithAllergyNote(request, doctor, patientId, 'Penicillin (anaphylaxis). No other allergies.');

  await page.goto('/');
  await logIn(page, 'doctor', doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  // the allergy panel: penicillin with anaphylaxis, never "No allergy recorded"
  await page.goto(`/doctor/all-medical-records?patientId=${patientId}`);
  const allergies = page.getByRole('region', { name: 'Allergies', exact: true });
  const penicillin = allergies
    .getByRole('list', { name: 'Allergy entries' })
    .getByRole('listitem')
    .filter({ hasText: 'Penicillin' });
  await expect(penicillin).toContainText('Reactions: anaphylaxis (severe)');
  await expect(allergies).not.toContainText('No allergy recorded');
  await expect(allergies.getByRole('region', { name: 'Allergy notes as written' })).toContainText(
    '“Penicillin (anaphylaxis). No other allergies.”',
  );

  await openPrescriptionFor(page, 'Tomasz Wolny');
  // the allergy box starts from the allergies on file
  await expect(page.getByLabel('Allergies (comma-separated)')).toHaveValue(/Penicillin \(anaphylaxis\)/);
  // a drug the vocabulary does not know: said, in the warning style, not silence
  await page.getByLabel('Drug').fill('Zorblatrin 10 mg');
  await expect(page.getByRole('status', { name: 'Not checked' })).toContainText(
    'Zorblatrin 10 mg not recognised — allergy and interaction checks were not performed for Zorblatrin 10 mg',
  );
  await page.getByLabel('Drug').fill('Co-amoxiclav 625 mg');
  await expect(page.getByRole('status', { name: 'Not checked' })).toHaveCount(0);
  await expect(page.getByRole('alert', { name: 'Stop alerts' })).toContainText(/co-amoxiclav.*penicillin/i);
  await fillDose(page);
  const finish = page.getByRole('button', { name: 'Finish' });
  await expect(finish).toBeDisabled();
  await page.getByLabel('Reason to override').fill(REASON);
  await finish.click();
  await expect(page).toHaveURL(/\/prescription$/);
  const override = page.getByRole('region', { name: 'Overridden alerts' });
  await expect(override).toContainText('Prescribed despite a stop alert — by Dr. Ines Varga');
  await expect(override).toContainText(`Reason: ${REASON}`);
  await expect(page.getByRole('region', { name: 'Prescription' })).toContainText(/Active · until \d{1,2} [A-Z][a-z]{2} \d{4}/);
  await logOut(page);

  await logIn(page, 'patient', patientEmail);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await page.goto('/prescription');
  await expect(page.getByRole('region', { name: 'Overridden alerts' })).toContainText(`Reason: ${REASON}`);
  await expect(page.getByRole('region', { name: 'Overridden alerts' })).toContainText(/penicillin/i);
});
