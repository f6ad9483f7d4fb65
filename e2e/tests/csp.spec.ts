import { expect, test } from '@playwright/test';
import { PORTS, origin } from '../stack';
import { PASSWORD, appTookOver, uniqueEmail, watchForViolations } from './helpers';

test('the landing page, the login page and a patient dashboard load through all remotes without a CSP violation', async ({
  page,
}) => {
  const violations = await watchForViolations(page);

  const landing = await page.goto('/');
  const csp = landing!.headers()['content-security-policy'];
  expect(csp).toContain("frame-ancestors 'none'");
  for (const remote of [PORTS.public, PORTS.patient, PORTS.doctor]) expect(csp).toContain(origin(remote));
  expect(landing!.headers()['x-frame-options']).toBe('DENY');
  await expect(page.getByRole('heading', { name: 'Empower Healthcare Decisions' })).toBeVisible();
  await appTookOver(page);

  await page.goto('/login/patient');
  await expect(page.getByRole('heading', { name: 'Patient Sign In' })).toBeVisible();
  await appTookOver(page);
  // The doctor remote too.
  await page.goto('/doctor/signup');
  await expect(page.getByRole('heading', { name: 'Create your doctor account' })).toBeVisible();

  // A patient signs up (patient remote, api calls) and lands on the dashboard.
  await page.goto('/patient/signup');
  await page.getByLabel('Name').fill('Csp Patient');
  await page.getByLabel('Email').fill(uniqueEmail('csp'));
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await expect(page.getByLabel('Profile summary')).toContainText('Csp Patient');
  await page.reload(); // a deep link, loaded as a document with its policy
  await expect(page.getByLabel('Profile summary')).toContainText('Csp Patient');

  expect(violations).toEqual([]);
});

test('a malformed URL gets the app, and the login page ignores a prototype key in ?error=', async ({ page }) => {
  const violations = await watchForViolations(page);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));

  const malformed = await page.goto('/%');
  expect(malformed!.status()).toBe(200);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  await page.goto('/login/patient?error=__proto__');
  await expect(page.getByRole('heading', { name: 'Patient Sign In' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
  expect(violations).toEqual([]);
});

test('the app cannot be framed by another site', async ({ page }) => {
  const res = await page.request.get('/');
  expect(res.headers()['x-frame-options']).toBe('DENY');
  expect(res.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
});
