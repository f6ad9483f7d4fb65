import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import { API_URL } from '../stack';
import { auth, connectAnotherPatient, connectedPair, logIn } from './helpers';

// Issue 12 item 9: the doctor's dashboard lists assigned patients most at risk first.

/** All seven NEWS2 parameters, well: pulse 92 → 1, the rest 0. */
const WELL = {
  respiratoryRate: 16,
  oxygenSaturation: 98,
  spo2Scale: 1,
  supplementalOxygen: false,
  bloodPressure: '124/80',
  pulse: 92,
  consciousness: 'A',
  temperature: '36.8',
};
/** All seven, septic-looking: RR 28 → 3, SpO2 90 → 3, air 0, 88 → 3, 128 → 2, C → 3, 39.4 °C → 2 = 16. */
const SEPTIC = {
  ...WELL,
  respiratoryRate: 28,
  oxygenSaturation: 90,
  bloodPressure: '88/50',
  pulse: 128,
  consciousness: 'C',
  temperature: '39.4',
};

async function recordVitals(request: APIRequestContext, doctor: string, patientId: string, vitals: Record<string, unknown>) {
  const res = await request.post(`${API_URL}/medicalhistory/${patientId}`, {
    headers: auth(doctor),
    data: {
      medicalHistory: { title: 'Observations', biodata: { modeOfAdmission: 'Emergency' }, systemicHistory: {} },
      examination: { generalPhysicalExamination: vitals },
      investigations: {},
      treatment: {},
    },
  });
  expect(res.status()).toBe(201);
}

const rows = (page: Page) => page.getByRole('region', { name: 'Assigned patients' }).getByRole('listitem');
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('after a doctor records all seven NEWS2 parameters of a septic-looking patient, the worklist puts that patient first, with the score, linking to their records', async ({
  page,
  request,
}) => {
  const pair = await connectedPair(request, {
    doctor: { name: 'Dr Wren Hale' },
    patient: { name: 'Zora Quint', DOB: '1958-07-21' },
  });
  const zora = { id: pair.patientId, email: pair.patientEmail };
  const anna = await connectAnotherPatient(request, pair.doctor, { name: 'Anna Bell', DOB: '1984-02-09' });
  // Zora's first observations are all normal (0), Anna's score 1: Anna is listed first.
  await recordVitals(request, pair.doctor, zora.id, { ...WELL, pulse: 72 });
  await recordVitals(request, pair.doctor, anna.id, WELL);

  await page.goto('/');
  await logIn(page, 'doctor', pair.doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  // a phone's width from here on
  await page.setViewportSize({ width: 390, height: 900 });
  await expect(page.getByText(/^Most urgent first: critical values and possible sepsis/)).toBeVisible();
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).nth(0)).toContainText('Anna Bell');
  await expect(rows(page).nth(0)).toContainText('NEWS2 1 (low)');
  await expect(rows(page).nth(1)).toContainText('Zora Quint');
  await expect(rows(page).nth(1)).toContainText('NEWS2 0 (low)');

  // The doctor records Zora's septic picture; back on the dashboard she is first.
  await recordVitals(request, pair.doctor, zora.id, SEPTIC);
  // in-app navigation (the dashboard reads the worklist again when it shows)
  await rows(page)
    .nth(0)
    .getByRole('link', { name: /Anna Bell/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/doctor/all-medical-records\\?patientId=${anna.id}$`));
  await page.goBack();
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  const first = rows(page).nth(0);
  await expect(first).toContainText('Zora Quint');
  await expect(first).toContainText('Born 21 Jul 1958');
  await expect(first).toContainText('NEWS2 16 (high)');
  // why the row is first
  await expect(first).toContainText('Emergency:');
  await expect(first).toContainText('Last vitals today');
  await expect(first).toContainText('+16 since previous');
  await expect(first).toContainText('Last record');
  await expect(rows(page).nth(1)).toContainText('Anna Bell');
  expect(await noSidewaysScroll(page)).toBe(true);

  // Her row links to her records.
  await first.getByRole('link', { name: /Zora Quint/ }).click();
  await expect(page).toHaveURL(new RegExp(`/doctor/all-medical-records\\?patientId=${zora.id}$`));
  await expect(page.getByRole('region', { name: 'Records of' })).toContainText(zora.email);
});

test('a critical value outranks NEWS2: a hypoglycaemic patient with NEWS2 0 is above a NEWS2 5 patient, and a patient with no date of birth and pulse 25 is critical', async ({
  page,
  request,
}) => {
  const pair = await connectedPair(request, {
    doctor: { name: 'Dr Ines Varga' },
    patient: { name: 'Hugo Low', DOB: '1970-03-04' },
  });
  const medium = await connectAnotherPatient(request, pair.doctor, { name: 'Mia Medium', DOB: '1965-05-06' });
  // no date of birth: adult rules, never silence
  const noDob = await connectAnotherPatient(request, pair.doctor, { name: 'Nils Nodob' });
  // NEWS2 0 (pulse 72) with glucose 1.9 mmol/L
  await recordVitals(request, pair.doctor, pair.patientId, { ...WELL, pulse: 72, bloodSugarLevel: '1.9 mmol/L' });
  // NEWS2 5: RR 22 → 2, SpO2 94 → 1, pulse 92 → 1, 38.5 °C → 1
  await recordVitals(request, pair.doctor, medium.id, {
    ...WELL,
    respiratoryRate: 22,
    oxygenSaturation: 94,
    temperature: '38.5',
  });
  await recordVitals(request, pair.doctor, noDob.id, { ...WELL, pulse: 25 });

  await page.goto('/');
  await logIn(page, 'doctor', pair.doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await expect(rows(page)).toHaveCount(3);
  const names = await rows(page).evaluateAll((items) => items.map((li) => li.textContent ?? ''));
  const at = (name: string) => names.findIndex((text) => text.includes(name));
  expect(at('Hugo Low')).toBeLessThan(at('Mia Medium'));
  expect(at('Nils Nodob')).toBeLessThan(at('Mia Medium'));
  await expect(rows(page).filter({ hasText: 'Hugo Low' })).toContainText('Emergency: Critical: glucose 1.9 mmol/L');
  await expect(rows(page).filter({ hasText: 'Nils Nodob' })).toContainText('Emergency: Critical: pulse 25 /min');
  await expect(rows(page).filter({ hasText: 'Mia Medium' })).toContainText('Urgent: NEWS2 5 medium');
});

test('when the api cannot answer, the dashboard says so in each card instead of leaving it blank, and Try again brings the patients back', async ({
  page,
  request,
}) => {
  const pair = await connectedPair(request, {
    doctor: { name: 'Dr Ines Roth' },
    patient: { name: 'Olek Brand', DOB: '1971-05-30' },
  });
  await page.goto('/');
  await logIn(page, 'doctor', pair.doctorEmail);
  await expect(rows(page)).toHaveCount(1);
  // the api down for the worklist and the profile (answers 503 to every try)
  const down = (route: Route) => route.fulfill({ status: 503, json: { error: 'Service unavailable' } });
  await page.route(/\/doctor\/(worklist|me)$/, down);
  await page.reload();
  const patients = page.getByRole('region', { name: 'Assigned patients' });
  await expect(patients.getByRole('alert')).toHaveText(/Could not load your patients\./);
  await expect(page.getByRole('region', { name: 'Profile summary' }).getByRole('alert')).toHaveText(
    /Could not load your profile\./,
  );
  await expect(patients).toHaveAttribute('aria-busy', 'false');
  await page.unroute(/\/doctor\/(worklist|me)$/, down);
  await patients.getByRole('button', { name: 'Try again' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).nth(0)).toContainText('Olek Brand');
  await expect(patients.getByRole('alert')).toHaveCount(0);
});
