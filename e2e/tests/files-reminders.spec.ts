import { expect, test } from '@playwright/test';
import { API_URL } from '../stack';
import { waitForEmail } from './mail';
import { PASSWORD, auth, connectedPair, logIn, logOut, uniqueEmail } from './helpers';

const PEOPLE = { doctor: { name: 'Dr. Yuki Sato' }, patient: { name: 'Maria Costa' } };

/** A real, small PDF document padded to `size` bytes with PDF comments. */
function pdf(size: number): Buffer {
  const head =
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n';
  const tail = 'trailer << /Root 1 0 R >>\n%%EOF\n';
  const padding = Math.max(0, size - head.length - tail.length);
  return Buffer.from(head + `%${'x'.repeat(78)}\n`.repeat(Math.ceil(padding / 80)).slice(0, padding) + tail);
}

test('a patient uploads a PDF with a visible progress bar and opens it; the assigned doctor opens it too; another patient is refused', async ({
  page,
  request,
}) => {
  const { doctorEmail, patientEmail, patient } = await connectedPair(request, PEOPLE);
  await page.goto('/');
  await logIn(page, 'patient', patientEmail);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await page.getByRole('link', { name: 'Upload' }).click();
  await expect(page).toHaveURL(/\/patient\/dashboard\/medical-files\/upload$/);

  // Nothing happens with no file chosen.
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Uploading...')).toHaveCount(0);

  // A slow link, so the progress is there to see.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 400 * 1024,
  });
  await page
    .getByLabel('PDF file')
    .setInputFiles({ name: 'Blood test – March.pdf', mimeType: 'application/pdf', buffer: pdf(1_500_000) });
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Uploading...')).toBeVisible();
  const bar = page.getByRole('progressbar', { name: 'Upload progress' });
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect(page.getByText('File upload successful')).toBeVisible({ timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // A file that is not a PDF is refused.
  await page.getByLabel('PDF file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByRole('alert')).toHaveText('Could not upload your file. Only PDF files can be uploaded.');

  await page.getByRole('link', { name: 'See your files' }).click();
  const link = page.getByRole('list', { name: 'Medical files' }).getByRole('link', { name: 'Blood test – March.pdf' });
  await expect(link).toBeVisible();
  const fileUrl = (await link.getAttribute('href'))!;
  const opened = await request.get(fileUrl);
  expect(opened.status()).toBe(200);
  expect(opened.headers()['content-type']).toContain('application/pdf');
  expect(opened.headers()['content-disposition']).toMatch(/^inline; filename=/);
  expect((await opened.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await logOut(page);

  await logIn(page, 'doctor', doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await page.goto('/doctor/dashboard/medical-files');
  const doctorLink = page.getByRole('list', { name: 'Medical files' }).getByRole('link', { name: 'Blood test – March.pdf' });
  await expect(doctorLink).toBeVisible();
  expect((await request.get((await doctorLink.getAttribute('href'))!)).status()).toBe(200);

  // Another patient may neither upload for this patient nor list this patient's files.
  const other = (
    await (
      await request.post(`${API_URL}/patient/signup`, { data: { name: 'Eve', email: uniqueEmail('eve'), password: PASSWORD } })
    ).json()
  ).token;
  const me = await (await request.get(`${API_URL}/patient/me`, { headers: auth(patient) })).json();
  const upload = await request.get(`${API_URL}/medical-record/${me.patient._id}?fileType=application/pdf&fileName=x.pdf`, {
    headers: auth(other),
  });
  expect(upload.status()).toBe(403);
  const list = await (await request.get(`${API_URL}/medical-record`, { headers: auth(other) })).json();
  expect(list.fileName).toEqual([]);
});

test('a doctor schedules a reminder for now + 3 s and its .eml appears in the outbox', async ({ page, request }) => {
  const { doctorEmail, patientEmail } = await connectedPair(request, PEOPLE);
  await page.goto('/');
  await logIn(page, 'doctor', doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await page.getByRole('link', { name: 'Schedule' }).click();
  await expect(page).toHaveURL(/\/doctor\/dashboard\/reminder$/);

  const subject = `Take your evening dose ${Date.now()}`;
  const at = new Date(Date.now() + 3000);
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
  await page.getByLabel("To (patient's email)").fill(uniqueEmail('stranger'));
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill('Metformin 500 mg with dinner.');
  await page.getByLabel('Start date').fill(local);
  await page.getByLabel('Repeat every (days, 0 = once)').fill('0');
  await page.getByRole('button', { name: 'Schedule' }).click();
  // Not an open relay: only assigned patients.
  await expect(page.getByRole('alert')).toHaveText('Failed to schedule email. Please check your input.');

  await page.getByLabel("To (patient's email)").fill(patientEmail);
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByRole('status')).toHaveText('Email scheduled successfully!');
  await expect(page.getByRole('list', { name: 'Scheduled reminders' })).toContainText(subject);

  // The patient's verification mail went to the same address first.
  const mail = await waitForEmail(patientEmail, subject, 20_000);
  expect(mail).toContain(`Subject: ${subject}`);
  expect(mail).toContain('Metformin 500 mg with dinner.');
});
