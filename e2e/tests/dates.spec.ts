import { expect, test, type Page } from '@playwright/test';
import { API_URL } from '../stack';
import { auth, connectedPair, logIn, logOut, uploadPdf } from './helpers';

// One date format wherever a person reads a date: "12 Mar 1985", "27 Nov 2026, 19:30".

const ISO_DATE = /\d{4}-\d{2}-\d{2}/;
const DATE_TIME = /\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\b/;

/**
 * The page's visible text, less what is typed in form controls: an <input type="date"> keeps
 * its ISO value (the browser's own control), and innerText never includes an input's value.
 */
const visibleText = (page: Page) => page.locator('body').innerText();

async function settled(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  await page.goto(path);
  await ready(page);
  // a lazily loaded panel (trends, allergies) may still arrive: wait for the network to rest
  await page.waitForLoadState('networkidle');
  return visibleText(page);
}

test('both roles read every date as "12 Mar 1985" and every time as "27 Nov 2026, 19:30": no ISO date on any page', async ({
  page,
  request,
}) => {
  const pair = await connectedPair(request, {
    doctor: { name: 'Dr. Inés Ortega' },
    patient: { name: 'Zoë Ngata', DOB: '1985-03-12' },
  });
  const created = await request.post(`${API_URL}/medicalhistory/${pair.patientId}`, {
    headers: auth(pair.doctor),
    data: {
      medicalHistory: { title: 'Dated review', biodata: { modeOfAdmission: 'Emergency' }, systemicHistory: {} },
      examination: { generalPhysicalExamination: { pulse: 80, bloodPressure: '120/80', observedAt: '2026-11-20T08:30' } },
      investigations: {},
      treatment: {},
    },
  });
  expect(created.status()).toBe(201);
  const recordId = (await created.json()).record._id as string;
  const prescribed = await request.post(`${API_URL}/prescription/${pair.patientId}`, {
    headers: auth(pair.doctor),
    data: { prescribedDrug: 'Paracetamol', dosage: '1 g', administrationRoute: 'oral', dosageFrequency: 'qds', allergies: [] },
  });
  expect(prescribed.status()).toBe(201);
  await uploadPdf(request, { token: pair.patient, id: pair.patientId }, 'blood-test.pdf');

  const patientPages: [string, (page: Page) => Promise<void>][] = [
    ['/patient/dashboard', (p) => expect(p.getByLabel('Profile summary')).toContainText('12 Mar 1985')],
    [
      '/patient/all-medical-records',
      (p) =>
        expect(p.getByRole('list', { name: 'Medical records' })).toContainText(/Dated review[\s\S]*\d{1,2} [A-Z][a-z]{2} \d{4}/),
    ],
    [`/all-medical-records/${recordId}`, (p) => expect(p.getByText('20 Nov 2026, 08:30')).toBeVisible()],
    ['/prescription', (p) => expect(p.getByRole('list', { name: 'Prescriptions' })).toContainText('Paracetamol')],
    [
      '/patient/dashboard/medical-files',
      (p) => expect(p.getByRole('list', { name: 'Medical files' })).toContainText('blood-test.pdf'),
    ],
    ['/patient/notifications', (p) => expect(p.getByText(DATE_TIME).first()).toBeVisible()],
    ['/patient/access-history', (p) => expect(p.getByText(DATE_TIME).first()).toBeVisible()],
    ['/patient/sessions', (p) => expect(p.getByText(DATE_TIME).first()).toBeVisible()],
  ];

  await page.goto('/');
  await logIn(page, 'patient', pair.patientEmail);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  for (const [path, ready] of patientPages) {
    const text = await settled(page, path, ready);
    expect(text, `${path} shows no ISO date`).not.toMatch(ISO_DATE);
  }
  // the record's own page names the clinic's zone once and writes its times in the one format
  const record = await settled(page, `/all-medical-records/${recordId}`, (p) =>
    expect(p.getByText(/Times are in .* \(the clinic's time zone\)\./)).toHaveCount(1),
  );
  expect(record).toMatch(DATE_TIME);

  await logOut(page);
  const doctorPages: [string, (page: Page) => Promise<void>][] = [
    ['/doctor/dashboard', (p) => expect(p.getByText(/Born 12 Mar 1985/).first()).toBeVisible()],
    [
      '/doctor/all-medical-records',
      (p) =>
        expect(p.getByRole('list', { name: 'Medical records' })).toContainText(/born 12 Mar 1985 .*\d{1,2} [A-Z][a-z]{2} \d{4}/),
    ],
    [`/all-medical-records/${recordId}`, (p) => expect(p.getByText('20 Nov 2026, 08:30')).toBeVisible()],
    ['/prescription', (p) => expect(p.getByRole('list', { name: 'Prescriptions' })).toContainText('Paracetamol')],
    ['/doctor/notifications', (p) => expect(p.getByText(DATE_TIME).first()).toBeVisible()],
    ['/doctor/sessions', (p) => expect(p.getByText(DATE_TIME).first()).toBeVisible()],
    ['/doctor/access-history', (p) => expect(p.getByText(DATE_TIME).first()).toBeVisible()],
    ['/doctor/dashboard/reminder', (p) => expect(p.getByRole('tab', { name: /^Scheduled \(\d+\)$/ })).toBeVisible()],
  ];
  await logIn(page, 'doctor', pair.doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  for (const [path, ready] of doctorPages) {
    const text = await settled(page, path, ready);
    expect(text, `${path} shows no ISO date`).not.toMatch(ISO_DATE);
  }
});
