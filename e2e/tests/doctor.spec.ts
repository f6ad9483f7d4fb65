import { expect, test } from '@playwright/test';
import { PASSWORD, enrolOnPage, freshTotpCode, logIn, logOut, storedToken, uniqueEmail } from './helpers';

test('a doctor signs up, reaches the dashboard, logs out, logs in again and edits the profile', async ({ page }) => {
  const email = uniqueEmail('doctor');
  await page.goto('/');
  // The landing's doctor banner leads to doctor signup.
  await page.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/doctor\/signup$/);

  await page.getByLabel('Name').fill('Dr. Mei Lee');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Professional register').selectOption('GMC');
  await page.getByLabel('Registration number').fill('7654321');
  await expect(page.getByLabel('Years of experience')).toHaveValue('1');
  await page.getByLabel('Years of experience').fill('14');
  await page.getByLabel('Specialization (comma-separated)').fill('Cardiology, Internal medicine');
  await page.getByLabel('Qualifications (comma-separated)').fill('MBBS, MD');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Gender').selectOption('Female');
  await page.getByRole('button', { name: 'Finish' }).click();

  // Doctors turn two-factor on before anything else (REQUIRE_MFA_FOR): the app sends them there.
  await expect(page).toHaveURL(/\/doctor\/enable2fa$/);
  await expect(page.getByText('Two-factor authentication is required')).toBeVisible();
  await enrolOnPage(page, email);
  await page.goto('/doctor/dashboard');
  const summary = page.getByLabel('Profile summary');
  await expect(summary).toContainText('Dr. Mei Lee');
  await expect(summary).toContainText('Cardiology, Internal medicine');
  await expect(summary).toContainText('14');
  await expect(page.getByRole('heading', { name: 'Send Reminder' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Account' })).toContainText('Connect to Patients');
  expect(await page.evaluate(() => localStorage.getItem('role'))).toBe('doctor');

  await logOut(page);
  await logIn(page, 'doctor', email);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  const before = await storedToken(page);

  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByLabel('Name')).toHaveValue('Dr. Mei Lee');
  const newPassword = 'a brand new passphrase';
  await page.getByLabel('New password').fill(newPassword);
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Specialization (comma-separated)').fill('Cardiology, Sports medicine');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await expect(page.getByLabel('Profile summary')).toContainText('Cardiology, Sports medicine');
  // A password change revokes the old session; the answer's token replaced it, so we stay in.
  expect(await storedToken(page)).not.toBe(before);
  await page.reload();
  await expect(page.getByLabel('Profile summary')).toContainText('Qualifications');

  await logOut(page);
  await logIn(page, 'doctor', email, PASSWORD);
  await expect(page.getByRole('alert')).toHaveText('Could not authenticate');
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByLabel('6-digit code from your authenticator app').fill(await freshTotpCode(email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
});
