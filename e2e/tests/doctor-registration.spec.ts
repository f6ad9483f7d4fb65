import { expect, test } from '@playwright/test';
import { enrolOnPage, logIn, logOut, operatorVerifyDoctor, PASSWORD, signUpVia, uniqueEmail, verifyByMail } from './helpers';

/*
 * A doctor's professional registration: given at signup, awaiting an operator until verified (the
 * dashboard says so and the connect form is disabled), then verified by the operator command, after
 * which the doctor's request reaches the patient, who sees the registration as verified.
 */
test('a doctor signs up with a GMC number, waits for the operator, then connects; the patient sees it verified', async ({
  page,
  request,
}) => {
  const doctorEmail = uniqueEmail('doctor-reg');
  const patientEmail = uniqueEmail('patient-reg');
  await signUpVia(request, 'patient', { name: 'Iris Novak', email: patientEmail, DOB: '1979-06-01' });

  await page.goto('/doctor/signup');
  await page.getByLabel('Name').fill('Dr. Hana Sato');
  await page.getByLabel('Email').fill(doctorEmail);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Professional register').selectOption('GMC');
  // A wrong number is refused on the form, with the register's rule.
  await page.getByLabel('Registration number').fill('123456');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('A GMC number is 7 digits', { exact: true })).toBeVisible();
  await page.getByLabel('Registration number').fill('1234567');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/doctor\/enable2fa$/);
  await enrolOnPage(page, doctorEmail);
  await verifyByMail(request, 'doctor', doctorEmail);

  const awaiting =
    'Your registration GMC 1234567 is awaiting verification. You can send connection requests once it is verified.';
  await page.goto('/doctor/dashboard');
  await expect(page.getByText(awaiting)).toBeVisible();
  await page.goto('/doctor/assign-patients');
  await expect(page.getByText(awaiting)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send request' })).toBeDisabled();

  // The operator checks the number in the register, then runs the command.
  expect(operatorVerifyDoctor(doctorEmail)).toMatch(/^Verified the registration GMC 1234567 of doctor /);

  await page.reload();
  await expect(page.getByText(awaiting)).toHaveCount(0);
  await page.getByLabel("Patient's email").fill(patientEmail);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByRole('status')).toHaveText(`Request sent to ${patientEmail}.`);
  await logOut(page);

  await logIn(page, 'patient', patientEmail);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await page.goto('/patient/view-incoming-requests');
  const incoming = page.getByRole('list', { name: 'Incoming requests' });
  await expect(incoming).toContainText('Dr. Hana Sato');
  await expect(incoming).toContainText('Registration GMC 1234567, verified');
  await incoming.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText("You're all caught-up :-)")).toBeVisible();
  await page.goto('/patient/dashboard');
  await expect(page.getByLabel('Assigned Doctors')).toContainText('Registration GMC 1234567, verified');
});
