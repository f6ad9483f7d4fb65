import { expect, test } from '@playwright/test';
import { API_URL } from '../stack';
import { auth, connectedPair, logIn, logOut } from './helpers';

test("a patient ends a doctor's access after confirming; the doctor's next read of a record says their access ended", async ({
  page,
  request,
}) => {
  // A connected pair and a record the doctor wrote.
  const { patientEmail, doctorEmail, doctor, patientId } = await connectedPair(request, {
    doctor: { name: 'Dr. Mira Holt' },
    patient: { name: 'Ines Berg', DOB: '1975-06-01', gender: 'Female' },
  });
  const created = await request.post(`${API_URL}/medicalhistory/${patientId}`, {
    headers: auth(doctor),
    data: {
      medicalHistory: { title: 'Migraine', biodata: { modeOfAdmission: 'Emergency' }, systemicHistory: {} },
      examination: { generalPhysicalExamination: {} },
      investigations: {},
      treatment: {},
    },
  });
  expect(created.status()).toBe(201);
  const recordId = (await created.json()).record._id;
  const readRecord = () => request.get(`${API_URL}/medicalHistory/${recordId}`, { headers: auth(doctor) });
  expect((await readRecord()).status()).toBe(200);

  await page.goto('/');
  await logIn(page, 'patient', patientEmail);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  const doctors = page.getByLabel('Assigned Doctors');
  await doctors.getByRole('button', { name: 'End access: Dr. Mira Holt' }).click();
  const ask = page.getByRole('group', { name: "End Dr. Mira Holt's access to your records?" });
  await expect(ask).toBeVisible();
  // Cancel first: nothing changes.
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  expect((await readRecord()).status()).toBe(200);

  await doctors.getByRole('button', { name: 'End access: Dr. Mira Holt' }).click();
  await ask.getByRole('button', { name: 'End access' }).click();
  await expect(doctors.getByRole('status')).toHaveText('Access ended.');
  await expect(doctors.getByText('No assigned doctors yet')).toBeVisible();

  const after = await readRecord();
  expect(after.status()).toBe(403);
  expect(await after.json()).toEqual({ error: "You no longer have access to this patient's records" });

  // The access history tells the patient the connection ended.
  await page.goto('/patient/access-history');
  await expect(page.getByRole('table', { name: 'Access history' }).getByText('ended access for a doctor')).toBeVisible();

  // And the doctor's own access history tells them who ended their access.
  await logOut(page);
  await logIn(page, 'doctor', doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await page.goto('/doctor/access-history');
  const row = page
    .getByRole('table', { name: 'Access history' })
    .getByRole('row')
    .filter({ hasText: 'ended your access to their records' });
  await expect(row).toContainText('Ines Berg');
});
