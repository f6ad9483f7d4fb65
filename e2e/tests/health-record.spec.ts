import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { API_URL } from '../stack';
import { auth, connectAnotherPatient, connectedPair, logIn } from './helpers';

const DATED = /^careloop-health-record-\d{4}-\d{2}-\d{2}\.(json|pdf)$/;

/** Clicks a download button and reads the saved file. */
async function download(page: Page, button: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), bytes: await readFile((await file.path())!) };
}

test('a patient downloads their health record as FHIR JSON and as PDF; both show in their access history; nobody else gets it', async ({
  page,
  request,
}) => {
  const { doctor, patientEmail, patientId } = await connectedPair(request, {
    doctor: { name: 'Dr. Amara Obi' },
    patient: { name: 'Jonas Weber', DOB: '1980-03-04' },
  });
  const created = await request.post(`${API_URL}/medicalhistory/${patientId}`, {
    headers: auth(doctor),
    data: {
      medicalHistory: { title: 'Annual review', biodata: { modeOfAdmission: 'Emergency' }, systemicHistory: {} },
      examination: { generalPhysicalExamination: { pulse: 76, bloodPressure: '126/82' } },
      investigations: {},
      treatment: {},
    },
  });
  expect(created.status()).toBe(201);
  const recordId = (await created.json()).record._id as string;

  await page.goto('/');
  await logIn(page, 'patient', patientEmail);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await page.goto('/patient/all-medical-records');
  await expect(page.getByRole('list', { name: 'Medical records' })).toContainText('Annual review');

  const fhir = await download(page, 'Download my health record (FHIR)');
  expect(fhir.name).toMatch(DATED);
  expect(fhir.name.endsWith('.json')).toBe(true);
  const bundle = JSON.parse(fhir.bytes.toString('utf8'));
  expect(bundle.resourceType).toBe('Bundle');
  const resources = (bundle.entry as { resource: { resourceType: string; id: string } }[]).map((e) => e.resource);
  expect(resources).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ resourceType: 'Patient', id: patientId }),
      expect.objectContaining({ resourceType: 'Encounter', id: recordId }),
    ]),
  );

  const pdf = await download(page, 'Download as PDF');
  expect(pdf.name).toMatch(DATED);
  expect(pdf.name.endsWith('.pdf')).toBe(true);
  expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Both downloads are audited: the patient's own reads of everything they hold. The records page
  // itself lists records and allergies, but never the files: those rows are the downloads'.
  await page.goto('/patient/dashboard');
  await page.getByRole('link', { name: 'See access history' }).click();
  const history = page.getByRole('table', { name: 'Access history' });
  const byPatient = history.getByRole('row').filter({ hasText: 'Jonas Weber' });
  await expect(byPatient.filter({ hasText: 'listed your medical files' })).toHaveCount(2);

  // Another patient (even of the same doctor) cannot fetch it: 404, as for an unknown id.
  const other = await connectAnotherPatient(request, doctor, { name: 'Mira Stone' });
  const everything = await request.get(`${API_URL}/fhir/R4/Patient/${patientId}/$everything`, {
    headers: { ...auth(other.token), Accept: 'application/fhir+json' },
  });
  expect(everything.status()).toBe(404);
  // the PDF route serves the caller's own record only: theirs, not Jonas's
  const ownPdf = await request.get(`${API_URL}/patient/health-record.pdf`, { headers: auth(other.token) });
  expect(ownPdf.status()).toBe(200);
  expect(ownPdf.headers()['content-disposition']).toMatch(
    /^attachment; filename="careloop-health-record-\d{4}-\d{2}-\d{2}\.pdf"$/,
  );
  expect((await request.get(`${API_URL}/patient/health-record.pdf`)).status()).toBe(401);
  expect((await request.get(`${API_URL}/patient/health-record.pdf`, { headers: auth(doctor) })).status()).toBe(403);
});
