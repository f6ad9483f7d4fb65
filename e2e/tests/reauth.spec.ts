import { expect, test } from '@playwright/test';
import { API_URL } from '../stack';
import { waitForEmail } from './mail';
import { PASSWORD, logIn, logOut, uniqueEmail } from './helpers';

// Issue 11, "Re-authentication and notice": changing the password asks for the current one, a
// wrong one is refused beside its field, the right one works, and a notice mail (.eml) arrives.

test('changing the password asks for the current one; a wrong one is refused, the right one works and a notice arrives', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('patient-reauth');
  const signup = await request.post(`${API_URL}/patient/signup`, { data: { name: 'Rosa Diaz', email, password: PASSWORD } });
  expect(signup.status()).toBe(201);
  await page.goto('/');
  await logIn(page, 'patient', email);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);

  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByLabel('Name')).toHaveValue('Rosa Diaz');
  // Only a change of password or e-mail asks for the current password.
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  const newPassword = 'a far better passphrase';
  await page.getByLabel('New password').fill(newPassword);
  const current = page.getByLabel('Current password');
  await expect(current).toBeVisible();

  // Without it, Next stays on the step and says why.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(current).toHaveAccessibleDescription('Enter your current password to change your password or e-mail');

  // A wrong one: the api refuses it (403), shown beside the field, back on the first step.
  await current.fill('not my password at all');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByLabel('Current password')).toHaveAccessibleDescription('Current password is incorrect');
  await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
  await expect(page).toHaveURL(/\/patient\/edit$/);

  // The right one: saved, and the owner is told by mail.
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/patient\/dashboard$/);

  const notice = await waitForEmail(email, 'CareLoop: your password was changed');
  expect(notice).toContain('password of your CareLoop account was just changed');
  expect(notice).not.toContain(newPassword);

  await logOut(page);
  await logIn(page, 'patient', email, PASSWORD);
  await expect(page.getByRole('alert')).toHaveText('Could not authenticate');
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
});
