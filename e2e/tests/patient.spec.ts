import { expect, test } from '@playwright/test';
import { API_URL } from '../stack';
import { PASSWORD, logIn, logOut, openMenu, storedToken, uniqueEmail } from './helpers';

test('a patient signs up, reaches the dashboard, logs out, logs in again and edits the profile', async ({ page, request }) => {
  const email = uniqueEmail('patient');
  await page.goto('/');
  await openMenu(page, 'Create an account', 'As Patient');
  await expect(page).toHaveURL(/\/patient\/signup$/);

  await page.getByLabel('Name').fill('Asha Rao');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByLabel('Gender')).toHaveValue('Prefer not to say');
  await page.getByLabel('Date of birth').fill('1990-04-02');
  await page.getByLabel('Marital status').selectOption('Married');
  await page.getByLabel('Occupation').fill('Teacher');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Street').fill('12 Lake Road');
  await page.getByLabel('City').fill('Pune');
  await page.getByLabel('State').fill('Maharashtra');
  await page.getByLabel('Pin code').fill('411001');
  await page.getByRole('button', { name: 'Finish' }).click();

  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  const summary = page.getByLabel('Profile summary');
  await expect(summary).toContainText('Asha Rao');
  await expect(summary).toContainText('2 Apr 1990');
  await expect(summary).toContainText('12 Lake Road, Pune, Maharashtra, 411001');
  await expect(page.getByRole('heading', { name: 'Connect to Doctors' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Account' })).toContainText('Assigned Doctors');

  const firstToken = await storedToken(page);
  await logOut(page);
  expect(await storedToken(page)).toBeNull();
  await expect(page.getByRole('heading', { name: 'Empower Healthcare Decisions' })).toBeVisible();
  // Logout ends the session on the server too.
  const old = await request.get(`${API_URL}/patient/me`, { headers: { Authorization: `Bearer ${firstToken}` } });
  expect(old.status()).toBe(401);
  // Protected pages send a logged-out visitor to /.
  await page.goto('/patient/dashboard');
  await expect(page).toHaveURL(/\/$/);

  await logIn(page, 'patient', email);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await expect(page.getByLabel('Profile summary')).toContainText('Asha Rao');

  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(/\/patient\/edit$/);
  await expect(page.getByLabel('Name')).toHaveValue('Asha Rao');
  await page.getByLabel('Name').fill('Asha R. Rao');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByLabel(/date of birth/i)).toHaveCount(0);
  await page.getByLabel('Occupation').fill('Head teacher');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('City').fill('Mumbai');
  await page.getByRole('button', { name: 'Finish' }).click();

  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await page.reload();
  const edited = page.getByLabel('Profile summary');
  await expect(edited).toContainText('Asha R. Rao');
  await expect(edited).toContainText('Head teacher');
  await expect(edited).toContainText('12 Lake Road, Mumbai, Maharashtra, 411001');
  await expect(edited).toContainText('2 Apr 1990');
});
