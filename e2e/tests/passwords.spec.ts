import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { API_URL, PORTS, ROOT } from '../stack';
import { RESET_SUBJECT, waitForEmail } from './mail';
import { PASSWORD, auth, openMenu, signupExtras, uniqueEmail, verifyByMail } from './helpers';

// Issue 11 item 7 (NIST 800-63B / ASVS 2.1): zxcvbn judges every new password; its feedback is
// shown under the field as the person types, and the api refuses what scores below 3.
const STRONG = 'plum ferry cactus lantern';

/** The built chunks of the web apps that hold zxcvbn's dictionaries (1.6 MB each). */
const dictionaryChunks = ['shell', 'remote-public', 'remote-patient', 'remote-doctor'].flatMap((app) => {
  const dist = join(ROOT, app, 'dist');
  return readdirSync(dist).filter((f) => f.endsWith('.js') && readFileSync(join(dist, f), 'utf8').includes('passwords-common'));
});

/** zxcvbn is fetched lazily (its own chunk and the dictionaries'): the fetches of either. */
function judgeFetches(page: Page) {
  const urls: string[] = [];
  page.on('request', (r) => {
    const file = new URL(r.url()).pathname.split('/').pop() ?? '';
    if (/^password-judge\.[0-9a-f]+\.js$/.test(file) || dictionaryChunks.includes(file)) urls.push(file);
  });
  return urls;
}

test('patient signup: a common password gets feedback under the field and is refused; a passphrase signs up', async ({
  page,
}) => {
  const fetched = judgeFetches(page);
  await page.goto('/');
  await openMenu(page, 'Create an account', 'As Patient');
  await expect(page).toHaveURL(/\/patient\/signup$/);
  await page.getByLabel('Name').fill('Lena Roth');
  await page.getByLabel('Email').fill(uniqueEmail('weak-password'));
  // The page painted without the dictionaries.
  expect(fetched).toHaveLength(0);

  const password = page.getByLabel('Password');
  await password.fill('football');
  const feedback = page.getByTestId('password-feedback');
  await expect(feedback).toContainText('This password is too easy to guess.');
  await expect(feedback).toContainText('This is a frequently used password.');
  await expect(password).toHaveAccessibleDescription(/This is a frequently used password\./);
  expect(dictionaryChunks.length).toBeGreaterThan(0);
  expect(fetched.some((f) => f.startsWith('password-judge.'))).toBe(true);
  expect(fetched.some((f) => dictionaryChunks.includes(f))).toBe(true);

  // The form does not stop it; the api does, and its reason comes back under the field.
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByRole('alert')).toContainText('Could not register. Try again?');
  await expect(password).toBeVisible();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAccessibleDescription(
    /^This password is too easy to guess\. This is a frequently used password\./,
  );
  await expect(page).toHaveURL(/\/patient\/signup$/);

  await password.fill(STRONG);
  await expect(feedback).toHaveText('Strong enough.');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
});

test("reset password: the account's own name is refused with the library's feedback; a passphrase is taken", async ({
  page,
  request,
}) => {
  const email = uniqueEmail('reset-weak');
  const signup = await request.post(`${API_URL}/doctor/signup`, {
    data: { name: 'Dr. Zorblax Quintero', email, password: PASSWORD, ...signupExtras('doctor') },
  });
  expect(signup.status()).toBe(201);
  await request.post(`${API_URL}/doctor/forgot-password`, { data: { email } });
  const link = (await waitForEmail(email, RESET_SUBJECT)).match(
    new RegExp(`http://localhost:${PORTS.shell}(/doctor/reset-password/[0-9a-f-]{36}/[A-Za-z0-9_-]+)`),
  )![1];
  await page.goto(link);

  const password = page.getByLabel('New password', { exact: true });
  await password.fill('letmein123');
  await expect(page.getByTestId('password-feedback')).toContainText('This password is too easy to guess.');

  // The page does not know whose link it is; the api does, and refuses the name.
  const ownName = 'zorblaxquintero2024';
  await password.fill(ownName);
  await page.getByLabel('Repeat the new password').fill(ownName);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Could not authenticate');
  await expect(password).toHaveAccessibleDescription(/^This password is too easy to guess\. There should not be any personal/);

  // The refusal did not spend the link.
  await password.fill(STRONG);
  await page.getByLabel('Repeat the new password').fill(STRONG);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password has been reset. You can now log in.')).toBeVisible();
  expect((await request.post(`${API_URL}/doctor/login`, { data: { email, password: STRONG } })).status()).toBe(200);
});

// A reset link is bound to the account as it was when mailed: once the e-mail changed, the old
// link (to the old address) no longer works, and the page says why.
test('an old reset link is refused after an e-mail change, with a clear message', async ({ page, request }) => {
  const email = uniqueEmail('reset-old');
  const signup = await request.post(`${API_URL}/patient/signup`, { data: { name: 'Rhea Moved', email, password: PASSWORD } });
  expect(signup.status()).toBe(201);
  const token = (await signup.json()).token as string;
  await verifyByMail(request, 'patient', email);
  await request.post(`${API_URL}/patient/forgot-password`, { data: { email } });
  const link = (await waitForEmail(email, RESET_SUBJECT)).match(
    new RegExp(`http://localhost:${PORTS.shell}(/patient/reset-password/[0-9a-f-]{36}/[A-Za-z0-9_-]+)`),
  )![1];

  const fresh = uniqueEmail('reset-new');
  const changed = await request.patch(`${API_URL}/patient/me`, {
    headers: auth(token),
    data: { email: fresh, currentPassword: PASSWORD },
  });
  expect(changed.status()).toBe(200);
  // The link mailed to the new address, used with the password: the new address is in force.
  const changeMail = await waitForEmail(fresh, 'CareLoop: confirm your new e-mail address');
  const changeToken = /\/patient\/verify-email\/([A-Za-z0-9_-]+)/.exec(changeMail)![1];
  const confirmed = await request.post(`${API_URL}/patient/verify-email/${changeToken}`, { data: { password: PASSWORD } });
  expect(confirmed.status()).toBe(200);

  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill(STRONG);
  await page.getByLabel('Repeat the new password').fill(STRONG);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toContainText(
    "Could not authenticate. This reset link is invalid or has expired, or the account's e-mail or password changed since it was sent",
  );
  expect((await request.post(`${API_URL}/patient/login`, { data: { email: fresh, password: STRONG } })).status()).toBe(401);
  expect((await request.post(`${API_URL}/patient/login`, { data: { email: fresh, password: PASSWORD } })).status()).toBe(200);
});
