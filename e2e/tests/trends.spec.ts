import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { API_URL } from '../stack';
import { auth, connectedPair, logIn, logOut } from './helpers';

/** A record written through the api with these general physical examination values. */
async function writeRecord(request: APIRequestContext, doctor: string, patientId: string, title: string, gpe: object) {
  const res = await request.post(`${API_URL}/medicalhistory/${patientId}`, {
    headers: auth(doctor),
    data: {
      medicalHistory: { title, biodata: { modeOfAdmission: 'Emergency' }, systemicHistory: {} },
      examination: { generalPhysicalExamination: gpe },
      investigations: {},
      treatment: {},
    },
  });
  expect(res.status()).toBe(201);
}

/** The trend card's chart and its table, opened; the table's rows as their cells' texts. */
async function trendRows(page: Page) {
  const chart = page.getByRole('img', { name: /trends/i });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleName(
    'Vital sign trends: NEWS2, blood pressure, pulse, temperature, respiratory rate and SpO2 across 2 records, 10 Jan 2026, 08:00 to 11 Jan 2026, 09:30',
  );
  // uPlot drew the panels: one canvas per measure
  await expect(chart.locator('canvas')).toHaveCount(6);
  await page.getByText('Show as table').click();
  const table = page.getByRole('table', { name: /vital signs by record/i });
  await expect(table).toBeVisible();
  return table
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim())));
}

const EXPECTED_ROWS = [
  // RR 22 → 2, SpO2 93 → 2, air 0, systolic 150 → 0, pulse 112 → 2, alert 0, 38.6 °C → 1: NEWS2 7
  ['10 Jan 2026, 08:00', 'Admission', '7', '150/95', '112', '38.6', '22', '93 (scale 1, on air)'],
  // no temperature typed: a gap and an incomplete score, never a number
  ['11 Jan 2026, 09:30', 'Ward review', 'at least 0 (incomplete)', '124/78', '84', 'not measured', '16', '97 (scale 1, on air)'],
];

test("a doctor's two records: the patient's records page and the doctor's, narrowed to that patient, show the vital sign trends", async ({
  page,
  request,
}) => {
  const { doctor, doctorEmail, patientEmail, patientId } = await connectedPair(request, {
    doctor: { name: 'Dr. Lena Park' },
    patient: { name: 'Omar Haddad', DOB: '1970-05-02' },
  });
  const vitals = { spo2Scale: 1, supplementalOxygen: false, consciousness: 'A' };
  await writeRecord(request, doctor, patientId, 'Admission', {
    ...vitals,
    observedAt: '2026-01-10T08:00',
    bloodPressure: '150/95',
    pulse: 112,
    respiratoryRate: 22,
    oxygenSaturation: 93,
    temperature: '38.6',
  });
  await writeRecord(request, doctor, patientId, 'Ward review', {
    ...vitals,
    observedAt: '2026-01-11T09:30',
    bloodPressure: '124/78',
    pulse: 84,
    respiratoryRate: 16,
    oxygenSaturation: 97,
  });

  // The chart's chunk is fetched on the records page only.
  const chunks: string[] = [];
  page.on('request', (r) => {
    if (/vital-sign-chart/.test(r.url())) chunks.push(r.url());
  });

  await page.goto('/');
  await logIn(page, 'patient', patientEmail);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  expect(chunks).toEqual([]);
  // A phone's width: the panels stack.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/patient/all-medical-records');
  expect(await trendRows(page)).toEqual(EXPECTED_ROWS);
  expect(chunks.length).toBeGreaterThan(0);
  const panels = page.getByRole('img', { name: /trends/i }).locator('section');
  const first = (await panels.nth(0).boundingBox())!;
  const second = (await panels.nth(1).boundingBox())!;
  expect(second.x).toBe(first.x);
  expect(second.y).toBeGreaterThan(first.y + first.height - 1);
  expect(first.x + first.width).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logOut(page);

  await logIn(page, 'doctor', doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await page.goto(`/doctor/all-medical-records?patientId=${patientId}`);
  expect(await trendRows(page)).toEqual(EXPECTED_ROWS);
});
