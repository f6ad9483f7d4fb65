// `/` and the logins (a visitor's first screen) and the dashboards (a signed-in role's app shell) are
// served as HTML rendered at build time (scripts/prerender.mjs): their first screen paints before any
// script runs, and the app replaces it when its own page is there (shell/src/prerendered.ts).
import { expect, test } from '@playwright/test';
import { SHELL_URL } from '../stack';
import { signUpVia, uniqueEmail } from './helpers';

const HEADING = 'Empower Healthcare Decisions';

test('the HTML of `/` already holds the landing heading; a deep link gets the plain shell page', async ({ request }) => {
  const landing = await (await request.get(`${SHELL_URL}/`)).text();
  expect(landing).toContain('<div id="prerendered" inert>');
  expect(landing).toContain(HEADING);
  expect(landing).toMatch(/<div id="root" hidden><\/div>/);
  const deep = await (await request.get(`${SHELL_URL}/about`)).text();
  expect(deep).not.toContain('id="prerendered"');
  expect(deep).not.toContain(HEADING);
});

test('a login is prerendered for its bare URL; with a query (a sign-in coming back) it gets the plain page', async ({
  request,
}) => {
  const login = await (await request.get(`${SHELL_URL}/login/doctor`)).text();
  expect(login).toContain('<div id="prerendered" inert>');
  expect(login).toMatch(/<h1[^>]*>Doctor(<!-- -->)? Sign In<\/h1>/);
  // nothing can be typed into the copy, nor submitted natively with the password in the URL
  expect(login).toMatch(/<input disabled="" [^>]*type="password"/);
  expect(login).toMatch(/<button disabled="" type="submit"/);
  const back = await (await request.get(`${SHELL_URL}/login/patient?error=google_failed`)).text();
  expect(back).not.toContain('id="prerendered"');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the landing and the login still show their first screen; the static form takes nothing', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await page.goto('/login/patient');
    await expect(page.getByRole('heading', { level: 1, name: 'Patient Sign In' })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Log In' })).toBeDisabled();
  });
});

test("the login's form is the app's once it takes over: typed into and sent", async ({ page }) => {
  await page.goto('/login/patient');
  // Playwright waits for an enabled field: the app's, never the static copy's
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Could not authenticate');
  await expect(page.locator('#prerendered')).toHaveCount(0);
  await expect(page.getByLabel('Email')).toHaveValue('nobody@example.com');
});

test('the app takes over the prerendered page: one heading, working links, no console error', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.locator('#prerendered')).toHaveCount(0);
  await expect(page.locator('#root')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  await page.getByRole('link', { name: 'About' }).first().click();
  await expect(page).toHaveURL(/\/about$/);
  expect(errors).toEqual([]);
});

test('signed in, the app replaces the landing before its first screen, not after', async ({ page }) => {
  // When the deferred entry script has run, is the static landing still in the page?
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { landingAtStart: boolean }).landingAtStart = document.getElementById('prerendered') !== null;
    });
  });
  const landingAtStart = () => page.evaluate(() => (window as unknown as { landingAtStart: boolean }).landingAtStart);
  await page.goto('/');
  // Logged out, it stays until the app's own landing is there (which needs the remote: later).
  expect(await landingAtStart()).toBe(true);
  // shared-auth's TOKEN_KEY, with a token the api will reject: the app decides what `/` shows.
  await page.evaluate(() => localStorage.setItem('token', 'not-a-real-token'));
  await page.goto('/');
  expect(await landingAtStart()).toBe(false);
});

test.describe("a signed-in role's app shell", () => {
  test('the dashboards are served with their frame and loading view, marked for their role', async ({ request }) => {
    for (const [path, role, heading] of [
      ['/patient/dashboard', 'patient', 'Patient dashboard'],
      ['/doctor/dashboard', 'doctor', 'Doctor dashboard'],
    ]) {
      const html = await (await request.get(`${SHELL_URL}${path}`)).text();
      expect(html).toContain(`<div id="prerendered" data-role="${role}" inert>`);
      expect(html).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      // the frame (the account sidebar's place), and no personal data: none exists at build time
      expect(html).toContain('aria-label="Account"');
      // the signed-in top bar, not a visitor's sign-in menus
      expect(html).toContain('Log Out');
      expect(html).not.toContain('Create an account');
      expect(html).not.toMatch(/@[a-z0-9-]+\.[a-z]/i);
    }
  });

  test("the app takes over for the role's session; anyone else never sees the copy", async ({ page, request }) => {
    const patientToken = await signUpVia(request, 'patient', {
      email: uniqueEmail('patient'),
      name: 'Shelly Shell',
      DOB: '1985-03-12',
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { copyAtStart: boolean }).copyAtStart = document.getElementById('prerendered') !== null;
      });
    });
    const copyAtStart = () => page.evaluate(() => (window as unknown as { copyAtStart: boolean }).copyAtStart);
    await page.goto('/about');
    await page.evaluate((token) => {
      localStorage.setItem('token', token);
      localStorage.setItem('role', 'patient');
    }, patientToken);
    await page.goto('/patient/dashboard');
    expect(await copyAtStart()).toBe(true);
    await expect(page.locator('#prerendered')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: 'Patient dashboard' })).toHaveCount(1);
    await expect(page.getByText('Shelly Shell').first()).toBeVisible();
    // the patient's session on the doctor's dashboard: the doctor's copy is given up at once
    await page.goto('/doctor/dashboard');
    expect(await copyAtStart()).toBe(false);
    expect(errors).toEqual([]);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });
    test('the dashboard paints its frame and headings before any script', async ({ page }) => {
      await page.goto('/patient/dashboard');
      await expect(page.getByRole('heading', { level: 1, name: 'Patient dashboard' })).toBeVisible();
      await expect(page.getByRole('complementary', { name: 'Account' })).toBeAttached();
    });
  });
});
