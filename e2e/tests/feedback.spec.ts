import { expect, test } from '@playwright/test';
import { API_URL } from '../stack';
import { apiLogIn, signUpVia, uniqueEmail } from './helpers';

// A slow save shows that it is working, then says it is done (and the message goes again).
for (const width of [1280, 390]) {
  test(`at ${width} px a slow profile save shows progress in its button, then "Your profile was saved."`, async ({ page }) => {
    const email = uniqueEmail('feedback');
    await signUpVia(page.request, 'patient', { email, name: 'Asha Rao', occupation: 'Teacher' });
    const token = await apiLogIn(page.request, 'patient', email);
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await page.evaluate((t) => (localStorage.setItem('token', t), localStorage.setItem('role', 'patient')), token);

    // the save takes 1.5 s: as long as the reviewers' 2.9 s saves felt
    await page.route(`${API_URL}/patient/me`, async (route) => {
      if (route.request().method() !== 'PATCH') return route.fallback();
      await new Promise((r) => setTimeout(r, 1500));
      await route.fallback();
    });

    await page.goto('/patient/edit');
    await expect(page.getByLabel('Name')).toHaveValue('Asha Rao');
    await page.getByLabel('Name').fill('Asha R. Rao');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Occupation').fill('Head teacher');
    await page.getByRole('button', { name: 'Next' }).click();
    const finish = page.getByRole('button', { name: 'Finish' });
    await finish.click();
    await expect(finish).toHaveAttribute('aria-busy', 'true');
    await expect(finish).toBeDisabled();
    await expect(finish.getByTestId('spinner')).toBeVisible();

    await expect(page).toHaveURL(/\/patient\/dashboard$/);
    const saved = page.getByRole('status').filter({ hasText: 'Your profile was saved.' });
    await expect(saved).toBeVisible();
    await expect(page.getByLabel('Profile summary')).toContainText('Asha R. Rao');
    await expect(saved).toBeHidden({ timeout: 10_000 });
  });
}
