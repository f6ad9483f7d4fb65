import { expect, test } from '@playwright/test';
import { PORTS, origin } from '../stack';
import { appTookOver, uniqueEmail } from './helpers';

test('a wrong password shows "Could not authenticate" in red', async ({ page }) => {
  await page.goto('/login/patient');
  await page.getByLabel('Email').fill(uniqueEmail('nobody'));
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Log In' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText('Could not authenticate');
  await expect(alert).toHaveCSS('color', 'rgb(185, 28, 28)');
  await expect(page).toHaveURL(/\/login\/patient$/);
});

test('Google sign-in is offered on patient login only', async ({ page }) => {
  await page.goto('/login/patient');
  await expect(page.getByRole('link', { name: 'Continue with Google' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgot Password' })).toHaveAttribute('href', '/patient/forgot-password');
  await page.goto('/login/doctor');
  await expect(page.getByRole('heading', { name: 'Doctor Sign In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue with Google' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/doctor/signup');
});

test('an unknown URL shows the not-found screen', async ({ page }) => {
  await page.goto('/this/does/not/exist');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test("each remote's JS comes from its own port", async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Empower Healthcare Decisions' })).toBeVisible();
  await appTookOver(page);
  await page.goto('/doctor/signup');
  await expect(page.getByRole('heading', { name: 'Create your doctor account' })).toBeVisible();
  await page.goto('/patient/signup');
  await expect(page.getByRole('heading', { name: 'Create your patient account' })).toBeVisible();
  for (const port of [PORTS.shell, PORTS.public, PORTS.patient, PORTS.doctor]) {
    expect(
      scripts.some((u) => u.startsWith(`${origin(port)}/`)),
      `scripts from :${port}`,
    ).toBe(true);
  }
  expect(scripts).toContain(`${origin(PORTS.public)}/remoteEntry.js`);
  expect(scripts).toContain(`${origin(PORTS.doctor)}/remoteEntry.js`);
});

test('the mobile menu holds Home and the pages; dropdowns close on a press outside', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/about');
  await expect(page.getByRole('link', { name: 'Home' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByTestId('mobile-menu');
  await expect(menu.getByRole('link', { name: 'Home' })).toBeVisible();
  await menu.getByRole('button', { name: /Sign In/ }).click();
  await expect(page.getByRole('list', { name: 'Sign In' })).toBeVisible();
  await page.mouse.click(380, 700);
  await expect(page.getByRole('list', { name: 'Sign In' })).toHaveCount(0);
});

test('on a phone, an open dropdown lies above nothing else: a tap on "As Patient" signs in as a patient', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/about');
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByTestId('mobile-menu');
  await menu.getByRole('button', { name: /Sign In/ }).click();
  const asPatient = page.getByRole('list', { name: 'Sign In' }).getByRole('link', { name: 'As Patient' });
  const box = (await asPatient.boundingBox())!;
  // Its left edge: where the 'Create an account' button used to lie on top of it.
  const x = box.x + 8;
  const y = box.y + box.height / 2;
  const onTop = await page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.closest('a')?.textContent ?? null, [x, y]);
  expect(onTop).toBe('As Patient');
  await page.mouse.click(x, y);
  await expect(page).toHaveURL(/\/login\/patient$/);
  await expect(page.getByRole('list', { name: 'Create an account' })).toHaveCount(0);
});

for (const width of [1280, 390]) {
  test(`at ${width} px, every public page states the mission and gives the contact e-mail`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/about', '/team', '/features', '/contact']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText(/mission is to support clinical decisions/i);
      const mail = page.getByRole('contentinfo').getByRole('link', { name: 'contact@careloop.example' });
      await expect(mail).toHaveAttribute('href', 'mailto:contact@careloop.example');
      await mail.scrollIntoViewIfNeeded();
      await expect(mail).toBeVisible();
    }
  });
}
