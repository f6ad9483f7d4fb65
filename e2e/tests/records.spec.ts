import { expect, test, type Page } from '@playwright/test';
import { API_URL } from '../stack';
import { apiLogIn, connectedPair, logIn, logOut, signUpVia, uniqueEmail } from './helpers';

const PEOPLE = {
  doctor: { name: 'Dr. Sara Kim' },
  patient: { name: 'Peter Novak', DOB: '1961-03-15', gender: 'Male', occupation: 'Carpenter' },
};

async function next(page: Page) {
  await page.getByRole('button', { name: 'Next' }).click();
}

test('a doctor writes an eight-step record, generates the summary with NEWS2; the patient reads both; amoxicillin meets the penicillin allergy', async ({
  page,
  request,
}) => {
  const { doctorEmail, patientEmail } = await connectedPair(request, PEOPLE);
  await page.goto('/');
  await logIn(page, 'doctor', doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);

  await page.getByRole('link', { name: 'Create new' }).click();
  await expect(page).toHaveURL(/\/medical-record\/create$/);
  await page.getByRole('list', { name: 'Assigned patients' }).getByRole('link', { name: 'Peter Novak' }).click();
  await expect(page.getByRole('heading', { name: 'New medical record for Peter Novak' })).toBeVisible();

  // 1 Record: the title is required before Next.
  await next(page);
  await expect(page.getByRole('heading', { name: 'Record', exact: true })).toBeVisible();
  await page.getByLabel('Title').fill('Fever and breathlessness');
  await page.getByLabel('Mode of admission').selectOption('Emergency');
  await next(page);
  // 2 Presenting complaint
  await page.getByLabel('History of presenting complaints').fill('Fever and productive cough for 3 days');
  await page.getByLabel('History of presenting illness').fill('Worsening breathlessness since this morning');
  await next(page);
  // 3 Systemic history
  await page.getByLabel('Cardiovascular system').fill('Palpitations on exertion');
  await next(page);
  // 4 Past history
  await page.getByLabel('Past medical history').fill('Type 2 diabetes');
  await page.getByLabel('Allergies').fill('Penicillin (rash)');
  await next(page);
  // 5 Personal history
  await page.getByLabel('Occupational history').fill('Carpenter, sawdust exposure');
  await next(page);
  // 6 General physical examination: it starts empty (nothing is measured until typed), with no ticks.
  await expect(page.getByLabel('Pulse', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Respiratory rate', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Temperature', { exact: true })).toHaveValue('');
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await expect(page.getByLabel('Pulse', { exact: true })).toHaveAttribute('min', '20');
  await page.getByLabel('Blood pressure').fill('150/95');
  await page.getByLabel('Pulse', { exact: true }).fill('112');
  await page.getByLabel('Temperature', { exact: true }).fill('38.6');
  await page.getByLabel('Respiratory rate', { exact: true }).fill('22');
  await page.getByLabel('Blood sugar level').fill('180 mg/dL');
  await page.getByLabel('Weight', { exact: true }).fill('70.2');
  await page.getByLabel('Height', { exact: true }).fill('175');
  await next(page);
  // 7 System examination
  await page.getByLabel('Respiratory system').fill('Crackles right base');
  await next(page);
  // 8 Investigations and treatment; Back keeps what was typed.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Respiratory system')).toHaveValue('Crackles right base');
  await next(page);
  await page.getByLabel('Chest X-ray').fill('Right lower lobe consolidation');
  await page.getByLabel('Prescribed drug').fill('Clarithromycin');
  await page.getByLabel('Dosage', { exact: true }).fill('500 mg');
  await page.getByLabel('Administration route').fill('Oral');
  await page.getByLabel('Dosage frequency').fill('Twice daily');
  await page.getByRole('button', { name: 'Finish' }).click();

  await expect(page).toHaveURL(/\/all-medical-records\/[0-9a-f-]{36}$/);
  const record = page.getByRole('article', { name: 'Medical record: Fever and breathlessness' });
  await expect(record.getByRole('region', { name: 'Biodata' })).toContainText('Peter Novak');
  await expect(record.getByRole('region', { name: 'Doctor information' })).toContainText('Dr. Sara Kim');
  // saved, and the assessment is on screen at once, before any value: no button to press
  await expect(page.getByText('Record saved.')).toBeVisible();
  const banner = record.getByRole('alert', { name: 'Clinical assessment' });
  await expect(banner).toContainText('Urgent — review soon');
  await expect(banner).toContainText('NEWS2 at least 5 (incomplete) medium');
  await expect(banner).toBeInViewport();
  await record.getByRole('button', { name: 'Generate Summary' }).click();
  const summary = page.getByTestId('summary');
  await expect(summary.getByRole('heading', { name: 'Vital signs' })).toBeVisible();
  // SpO2, air or oxygen and consciousness not recorded: a lower bound, no response tier
  await expect(summary).toContainText('NEWS2 incomplete: at least 5');
  await expect(summary).toContainText('NEWS2 at least 5 (incomplete) medium:');
  await expect(page.getByLabel('About this summary')).toContainText('Generated');
  await expect(summary).not.toContainText('Response (');
  await expect(summary).toContainText(/pulse.*112.*high/i);
  await expect(summary).toContainText("BMI: 22.9 kg/m² (from this record's weight and height)");
  await expect(record.getByRole('region', { name: 'Examination' })).toContainText('70.2 kg');
  await expect(summary.getByRole('heading', { name: 'Alerts' })).toBeVisible();

  // Prescribing amoxicillin for a patient whose record says penicillin allergy: the alert shows before Finish.
  await page.goto('/create-prescription');
  await page.getByRole('list', { name: 'Assigned patients' }).getByRole('link', { name: 'Peter Novak' }).click();
  await page.getByLabel('Drug').fill('Amoxicillin');
  await expect(page.getByRole('region', { name: 'Medication alerts' })).toContainText(/penicillin/i);
  await page.getByLabel('Dosage').fill('500 mg');
  await page.getByLabel('Route').fill('Oral');
  await page.getByLabel('Frequency').fill('Three times a day');
  await page.getByLabel('How long').selectOption('days');
  await page.getByLabel('Number of days', { exact: true }).fill('7');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/prescription$/);
  await expect(page.getByRole('list', { name: 'Prescriptions' })).toContainText('Amoxicillin');
  // The doctor's lists across all their patients (no patientId) are reads of this patient's data too.
  await page.goto('/doctor/all-medical-records');
  await expect(page.getByRole('list', { name: 'Medical records' })).toContainText('Fever and breathlessness');
  await logOut(page);

  await logIn(page, 'patient', patientEmail);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await page.getByRole('link', { name: 'View history' }).click();
  await expect(page.getByRole('list', { name: 'Medical records' })).toContainText('Fever and breathlessness');
  await expect(page.getByTestId('summary')).toContainText('NEWS2 incomplete: at least 5');
  await page.goto('/prescription');
  await expect(page.getByRole('region', { name: 'Prescription', exact: true })).toContainText('Dr. Sara Kim');

  // The patient can see who accessed their data.
  await page.goto('/patient/dashboard');
  await page.getByRole('link', { name: 'See access history' }).click();
  const history = page.getByRole('table', { name: 'Access history' });
  await expect(history).toContainText('Dr. Sara Kim');
  await expect(history).toContainText('created a medical record');
  await expect(history).toContainText('generated a summary of a medical record');
  await expect(history).toContainText('created a prescription');
  const byDoctor = history.getByRole('row').filter({ hasText: 'Dr. Sara Kim' });
  await expect(byDoctor.filter({ hasText: 'listed your prescriptions' }).first()).toBeVisible();
  await expect(byDoctor.filter({ hasText: 'listed your medical records' }).first()).toBeVisible();
});

test('a pulse of 44 asks nothing, one of 25 needs confirming and is then recorded; all seven NEWS2 parameters of a septic-looking patient give the full score, a high response and "Possible sepsis"', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const { doctorEmail } = await connectedPair(request, { ...PEOPLE, patient: { ...PEOPLE.patient, name: 'Rita Sepsis' } });
  await logIn(page, 'doctor', doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  // in-app navigation: the session lives in the page, a reload would sign out
  await page.getByRole('link', { name: 'Create new' }).click();
  await page.getByRole('list', { name: 'Assigned patients' }).getByRole('link', { name: 'Rita Sepsis' }).click();
  await page.getByLabel('Title').fill('Fever and confusion');
  await page.getByLabel('Mode of admission').selectOption('Emergency');
  await next(page);
  await page.getByLabel('History of presenting complaints').fill('Fever, rigors and dysuria since yesterday');
  for (let i = 0; i < 4; i++) await next(page);
  await expect(page.getByRole('heading', { name: 'General physical examination' })).toBeVisible();

  // a plausible bradycardia asks nothing; an implausible pulse asks to be confirmed
  await page.getByLabel('Pulse', { exact: true }).fill('44');
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await page.getByLabel('Pulse', { exact: true }).fill('25');
  await page.getByLabel('Blood pressure').fill('88/50');
  await page.getByLabel('Temperature', { exact: true }).fill('39.2');
  await page.getByLabel('Respiratory rate', { exact: true }).fill('26');
  await page.getByLabel('SpO2', { exact: true }).fill('90');
  await page.getByLabel('SpO2 scale').selectOption({ label: 'Scale 1' });
  await page.getByLabel('Air or oxygen').selectOption({ label: 'Air' });
  await page.getByLabel('Consciousness').selectOption({ label: 'C: new confusion' });
  await page.getByLabel('Observation time').fill('2026-11-23T09:30');
  await page.getByLabel('Blood sugar level').fill('6.1 mmol/L');
  // outside the plausible 30–200 /min: the form asks to confirm, and stays until then
  await next(page);
  await expect(page.getByText('Pulse 25 /min is outside the plausible range (30–200 /min)')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'General physical examination' })).toBeVisible();
  await page.getByLabel('Confirm pulse of 25 /min').check();
  await next(page);
  await next(page);
  await page.getByRole('button', { name: 'Finish' }).click();

  await expect(page).toHaveURL(/\/all-medical-records\/[0-9a-f-]{36}$/);
  const record = page.getByRole('article', { name: 'Medical record: Fever and confusion' });
  const examination = record.getByRole('region', { name: 'Examination' });
  await expect(examination).toContainText('25 /min');
  await expect(examination).toContainText('C: new confusion');
  await record.getByRole('button', { name: 'Generate Summary' }).click();
  const summary = page.getByTestId('summary');
  // RR 26 → 3, SpO2 90 → 3, air 0, systolic 88 → 3, pulse 25 → 3, C → 3, 39.2 °C → 2
  await expect(summary).toContainText('NEWS2: 17');
  await expect(summary).toContainText('Response (high, RCP 2017 Chart 4): emergency response');
  await expect(summary).toContainText('Possible sepsis:');
  await expect(summary).toContainText('Pulse: 25 /min');
});

test('a patient sees the notice while no summary exists; a doctor with no patients sees "No assigned patients found"', async ({
  page,
  request,
}) => {
  const { doctorEmail, patientEmail } = await connectedPair(request, PEOPLE);
  const login = async (role: 'doctor' | 'patient', email: string) => apiLogIn(request, role, email);
  const doctorToken = await login('doctor', doctorEmail);
  const me = await (await request.get(`${API_URL}/doctor/me`, { headers: { Authorization: `Bearer ${doctorToken}` } })).json();
  const created = await request.post(`${API_URL}/medicalhistory/${me.doctor.assignedPatients[0].patient}`, {
    headers: { Authorization: `Bearer ${doctorToken}` },
    data: {
      medicalHistory: { title: 'Routine review', biodata: { modeOfAdmission: 'Outpatient' }, systemicHistory: {} },
      examination: { generalPhysicalExamination: {} },
      investigations: {},
      treatment: {},
    },
  });
  expect(created.status()).toBe(201);

  await page.goto('/');
  await logIn(page, 'patient', patientEmail);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await page.goto('/patient/all-medical-records');
  await expect(page.getByText('Summary not generated by the doctor yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Generate Summary' })).toHaveCount(0);
  await logOut(page);

  const lonely = uniqueEmail('doctor-alone');
  await signUpVia(request, 'doctor', { name: 'Dr. Alone', email: lonely }, { verified: false });
  await logIn(page, 'doctor', lonely);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await page.goto('/medical-record/create');
  await expect(page.getByText('No assigned patients found')).toBeVisible();
  await page.goto('/doctor/all-medical-records');
  await expect(page.getByText('No medical record found')).toBeVisible();
  await page.goto('/prescription');
  await expect(page.getByText('No prescriptions found')).toBeVisible();
});

for (const width of [1280, 390]) {
  test(`at ${width} px the record page has the title as its h1 and a long value stays readable`, async ({ page, request }) => {
    const { doctorEmail, patientEmail } = await connectedPair(request, PEOPLE);
    const token = async (role: 'doctor' | 'patient', email: string) => apiLogIn(request, role, email);
    const doctorToken = await token('doctor', doctorEmail);
    const me = await (await request.get(`${API_URL}/doctor/me`, { headers: { Authorization: `Bearer ${doctorToken}` } })).json();
    const ecg = 'ST elevation in II, III, aVF with reciprocal depression in I and aVL';
    const created = await request.post(`${API_URL}/medicalhistory/${me.doctor.assignedPatients[0].patient}`, {
      headers: { Authorization: `Bearer ${doctorToken}` },
      data: {
        medicalHistory: { title: 'Chest pain', biodata: { modeOfAdmission: 'Emergency' }, systemicHistory: {} },
        examination: { generalPhysicalExamination: {} },
        investigations: { electrocardiogram: ecg },
        treatment: {},
      },
    });
    expect(created.status()).toBe(201);
    const { record } = await created.json();

    await page.goto('/');
    await logIn(page, 'patient', patientEmail);
    await expect(page).toHaveURL(/\/patient\/dashboard$/);
    await page.setViewportSize({ width, height: 900 });
    for (const path of [`/all-medical-records/${record._id}`, '/patient/all-medical-records']) {
      await page.goto(path);
      const value = page.getByRole('region', { name: 'Investigations' }).getByText(ecg);
      await expect(value).toBeVisible();
      const label = page.getByRole('region', { name: 'Investigations' }).getByText('Electrocardiogram', { exact: true });
      const [v, l] = [(await value.boundingBox())!, (await label.boundingBox())!];
      // Never one character per line: the value gets most of the card's width...
      expect(v.width).toBeGreaterThan(Math.min(width, 700) * 0.5 - 40);
      // ...beside its label where there is room, under it on a phone.
      if (width === 390) expect(v.y).toBeGreaterThan(l.y);
      else if (path !== '/patient/all-medical-records') expect(v.x).toBeGreaterThan(l.x + l.width);
    }
    await page.goto(`/all-medical-records/${record._id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chest pain');
  });
}

test('a summary made before a new anaphylaxis reads "Out of date — regenerated" and lists it with its reaction; pregnancy adds its caveat to the banner', async ({
  page,
  request,
}) => {
  const pair = await connectedPair(request, {
    doctor: { name: 'Dr Olga Stale' },
    patient: { name: 'Rita Later', DOB: '1990-06-01' },
  });
  const doctor = { Authorization: `Bearer ${pair.doctor}` };
  // NEWS2 9 (RR 25, SpO2 93, systolic 95, pulse 120), amoxicillin on the record
  const created = await request.post(`${API_URL}/medicalhistory/${pair.patientId}`, {
    headers: doctor,
    data: {
      medicalHistory: { title: 'Breathless', biodata: { modeOfAdmission: 'Emergency' }, systemicHistory: {} },
      examination: {
        generalPhysicalExamination: {
          respiratoryRate: 25,
          oxygenSaturation: 93,
          spo2Scale: 1,
          supplementalOxygen: false,
          bloodPressure: '95/60',
          pulse: 120,
          consciousness: 'A',
          temperature: '37.0',
        },
      },
      investigations: {},
      treatment: { prescribedDrug: 'Amoxicillin' },
    },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).record._id as string;
  expect((await request.post(`${API_URL}/medicalhistory/summary/${id}`, { headers: doctor, data: {} })).status()).toBe(200);
  // after the summary: a confirmed penicillin anaphylaxis, and a pregnancy at 30 weeks
  const allergy = await request.post(`${API_URL}/allergies/${pair.patientId}`, {
    headers: doctor,
    data: {
      substance: { text: 'Penicillin' },
      type: 'allergy',
      category: 'medication',
      criticality: 'high',
      reactions: [{ manifestation: 'Anaphylaxis', severity: 'severe' }],
      clinicalStatus: 'active',
      verificationStatus: 'confirmed',
    },
  });
  expect(allergy.status()).toBe(201);
  const pregnant = await request.put(`${API_URL}/pregnancy/${pair.patientId}`, {
    headers: doctor,
    data: { status: 'pregnant', gestationWeeks: 30 },
  });
  expect(pregnant.status()).toBe(200);

  await page.goto('/');
  await logIn(page, 'doctor', pair.doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await page.goto(`/all-medical-records/${id}`);
  const record = page.getByRole('article', { name: 'Medical record: Breathless' });
  const banner = record.getByRole('alert', { name: 'Clinical assessment' });
  await expect(banner).toContainText('Emergency — assess now');
  await expect(banner).toContainText('NEWS2 9 high');
  await expect(banner).toContainText('Drug–allergy alert (stop)');
  await expect(banner).toContainText('not validated in pregnancy (30 weeks)');
  await expect(page.getByLabel('About this summary')).toContainText('Out of date — regenerated');
  await expect(page.getByTestId('summary')).toContainText('Penicillin — Anaphylaxis (severe); high criticality; confirmed');
  await expect(record.getByRole('button', { name: 'Regenerate Summary' })).toBeVisible();
});
