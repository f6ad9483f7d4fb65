import { expect, test, type Page } from '@playwright/test';
import { API_URL } from '../stack';
import { auth, connectAnotherPatient, connectedPair, logIn, uploadPdf } from './helpers';

// Issue 16 item 1: two patients with one name, connected to one doctor, are told apart by date of
// birth and e-mail wherever the doctor chooses or sees one, and each one's PDF can be reached.
const WIDTHS = [1280, 390];

async function namesakes(page: Page) {
  const pair = await connectedPair(page.request, {
    doctor: { name: 'Dr Meera Iyer' },
    patient: { name: 'Asha Rao', DOB: '1980-03-12' },
  });
  const elder = { email: pair.patientEmail, token: pair.patient, id: pair.patientId };
  const younger = await connectAnotherPatient(page.request, pair.doctor, { name: 'Asha Rao', DOB: '1991-11-02' });
  await uploadPdf(page.request, elder, 'elder-asha-ecg.pdf');
  await uploadPdf(page.request, younger, 'younger-asha-bloods.pdf');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await logIn(page, 'doctor', pair.doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  return { doctor: pair.doctor, elder, younger };
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

for (const width of WIDTHS) {
  test(`at ${width} px a doctor tells two patients named Asha Rao apart by birth date and e-mail, and reaches both PDFs`, async ({
    page,
  }) => {
    const { doctor, elder, younger } = await namesakes(page);
    await page.setViewportSize({ width, height: 900 });

    // The dashboard's assigned patients: both, each with birth date and e-mail, each a link.
    const assigned = page.getByRole('region', { name: 'Assigned patients' });
    await expect(assigned.getByRole('link', { name: /Asha Rao.*12 Mar 1980/ })).toContainText(elder.email);
    await expect(assigned.getByRole('link', { name: /Asha Rao.*2 Nov 1991/ })).toContainText(younger.email);

    // The files page's picker: one option per patient, labelled so they differ.
    await page.goto('/doctor/dashboard/medical-files');
    const picker = page.getByRole('combobox', { name: 'Patient' });
    await expect(picker.locator('option')).toHaveCount(2);
    const options = await picker.locator('option').allTextContents();
    expect(options).toHaveLength(2);
    expect(new Set(options).size).toBe(2);
    expect(options).toContainEqual(
      expect.stringMatching(new RegExp(`^Asha Rao · born 12 Mar 1980 \\(\\d+\\) · ${elder.email}$`)),
    );
    expect(options).toContainEqual(
      expect.stringMatching(new RegExp(`^Asha Rao · born 2 Nov 1991 \\(\\d+\\) · ${younger.email}$`)),
    );

    const files = page.getByRole('list', { name: 'Medical files' });
    for (const [who, file] of [
      [younger, 'younger-asha-bloods.pdf'],
      [elder, 'elder-asha-ecg.pdf'],
    ] as const) {
      await picker.selectOption(who.id);
      await expect(page.getByRole('region', { name: 'Showing files of' })).toContainText(who.email);
      const link = files.getByRole('link', { name: file });
      await expect(link).toBeVisible();
      await expect(files.getByRole('link')).toHaveCount(1);
      const opened = await page.request.get((await link.getAttribute('href'))!);
      expect(opened.status()).toBe(200);
      expect((await opened.body()).subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect(await noSidewaysScroll(page)).toBe(true);

    // The prescription picker: rows differ by birth date and e-mail and lead to the right patient.
    await page.goto('/create-prescription');
    const rows = page.getByRole('list', { name: 'Assigned patients' });
    await rows.getByRole('link', { name: /2 Nov 1991/ }).click();
    await expect(page).toHaveURL(new RegExp(`/create-prescription/${younger.id}$`));
    // The URL changes first; the picker's rows (identities too) stay until the form has loaded.
    await expect(page.getByRole('heading', { name: 'New prescription for Asha Rao' })).toBeVisible();
    await expect(page.getByTestId('patient-identity')).toContainText(younger.email);
    expect(await noSidewaysScroll(page)).toBe(true);

    // A prescription in the doctor's list says which Asha Rao it is for.
    const prescribed = await page.request.post(`${API_URL}/prescription/${elder.id}`, {
      headers: auth(doctor),
      data: { prescribedDrug: 'Atorvastatin', dosage: '20 mg', administrationRoute: 'Oral', dosageFrequency: 'Nightly' },
    });
    expect(prescribed.status()).toBe(201);
    await page.goto('/prescription');
    const detail = page.getByRole('region', { name: 'Prescription' });
    await expect(detail).toContainText('12 Mar 1980');
    await expect(detail).toContainText(elder.email);
    await expect(page.getByRole('list', { name: 'Prescriptions' })).toContainText(elder.email);

    // The records list narrowed to one patient names that patient in full.
    await page.goto(`/doctor/all-medical-records?patientId=${younger.id}`);
    await expect(page.getByRole('region', { name: 'Records of' })).toContainText(younger.email);
    await expect(page.getByRole('region', { name: 'Records of' })).toContainText('2 Nov 1991');

    // The reminder form names whom the typed address reaches.
    await page.goto('/doctor/dashboard/reminder');
    await page.getByLabel("To (patient's email)").fill(younger.email);
    await expect(page.getByTestId('patient-identity')).toContainText('2 Nov 1991');
  });
}
