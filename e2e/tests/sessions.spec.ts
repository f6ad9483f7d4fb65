import { expect, test } from '@playwright/test';
import { API_URL } from '../stack';
import { auth, logIn, signUpVia, uniqueEmail } from './helpers';

// The sessions page (ASVS V7): an account signed in on two devices sees both, this one marked, and
// signs the other out; that device's next request lands on the sign-in page, saying why.
test('two devices: the first signs the other out from the sessions page; the other lands on the sign-in page', async ({
  browser,
  request,
}) => {
  const email = uniqueEmail('patient');
  const signupToken = await signUpVia(request, 'patient', { name: 'Ines Duarte', email });
  // Only the two browsers' sessions are left.
  expect((await request.post(`${API_URL}/patient/logout`, { headers: auth(signupToken) })).status()).toBe(204);

  const [first, second] = [await browser.newContext(), await browser.newContext()];
  const [a, b] = [await first.newPage(), await second.newPage()];
  for (const page of [a, b]) {
    await page.goto('/');
    await logIn(page, 'patient', email);
    await expect(page).toHaveURL(/\/patient\/dashboard$/);
  }

  await a.getByRole('complementary', { name: 'Account' }).getByRole('link', { name: 'Signed-in devices' }).click();
  await expect(a).toHaveURL(/\/patient\/sessions$/);
  const sessions = a.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(sessions.first()).toContainText(/Chrome.* \d+ on Linux/);
  await expect(sessions.first()).toContainText('127.0.0.1');
  await expect(sessions.filter({ hasNotText: 'This device' }).getByRole('button', { name: /^Sign out/ })).toBeVisible();

  await a.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(sessions).toHaveCount(1);
  await expect(sessions.first()).toContainText('This device');
  await expect(a.getByRole('button', { name: 'Sign out all other sessions' })).toHaveCount(0);

  // The other device's next request is refused: its sign-in page says so.
  await b.getByRole('complementary', { name: 'Account' }).getByRole('link', { name: 'Medical Records' }).click();
  await expect(b).toHaveURL(/\/login\/patient$/);
  await expect(b.getByText('You were signed out: this session was ended. Please sign in again.')).toBeVisible();
  expect(await b.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // The first stays signed in.
  await a.reload();
  await expect(a).toHaveURL(/\/patient\/sessions$/);
  await expect(sessions).toHaveCount(1);
  await Promise.all([first.close(), second.close()]);
});
