import { expect, test } from '@playwright/test';
import { API_URL, SHELL_URL } from '../stack';
import { PASSWORD, auth, openMenu, signUpVia, uniqueEmail } from './helpers';
import { VERIFY_SUBJECT, waitForEmail } from './mail';

// Issue 11: a patient is found by a doctor only once the e-mail is proven by the mailed link.
test('a patient signs up, follows the link from the .eml, and only then can a doctor find them', async ({ page, request }) => {
  const email = uniqueEmail('verify-patient');
  const doctorEmail = uniqueEmail('verify-doctor');
  const doctor = await signUpVia(request, 'doctor', { name: 'Dr. Vera Linke', email: doctorEmail });
  const ask = (address: string) =>
    request.post(`${API_URL}/doctor/requestPatient`, { headers: auth(doctor), data: { email: address } });

  await page.goto('/');
  await openMenu(page, 'Create an account', 'As Patient');
  await page.getByLabel('Name').fill('Mira Sol');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/patient\/dashboard$/);

  // The banner says what is missing; a resend right after signup is refused, and says so.
  await expect(page.getByText('Please verify your e-mail address.')).toBeVisible();
  await page.getByRole('button', { name: 'Resend the link' }).click();
  await expect(page.getByRole('alert')).toContainText('less than a minute ago');

  // Before verification the doctor gets the very answer of an unknown address.
  const unknown = await ask(uniqueEmail('nobody'));
  const hidden = await ask(email);
  expect(hidden.status()).toBe(404);
  expect(hidden.status()).toBe(unknown.status());
  expect(await hidden.text()).toBe(await unknown.text());

  // The link from the .eml, followed on a phone-sized screen.
  const mail = await waitForEmail(email, VERIFY_SUBJECT);
  const link = new RegExp(`${SHELL_URL}/patient/verify-email/[A-Za-z0-9_-]+`).exec(mail)?.[0];
  expect(link).toBeTruthy();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Verify your e-mail address' })).toBeVisible();
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Verify my e-mail address' }).click();
  await expect(page.getByRole('status')).toHaveText('Your e-mail address is verified. Thank you!');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // A link works once; opened again it says it was used, and offers only the way in.
  const again = await request.post(`${API_URL}/patient/verify-email/${link!.split('/').pop()}`, { data: { password: PASSWORD } });
  expect(again.status()).toBe(410);
  await page.goto(link!);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Verify my e-mail address' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'This verification link was already used: your e-mail address is verified. Sign in to continue.',
  );
  await expect(page.getByLabel('Password')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'I did not create this account' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Go to your dashboard' }).click();
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await expect(page.getByLabel('Profile summary')).toContainText('Mira Sol');
  await expect(page.getByText('Please verify your e-mail address.')).toHaveCount(0);

  // Now the doctor finds the patient; the answer names the address, not the person.
  const found = await ask(email);
  expect(found.status()).toBe(201);
  expect(await found.json()).toEqual({ message: `Request sent to ${email}.` });
});

test('an unverified doctor cannot send a connection request, and a bad link says so', async ({ page, request }) => {
  const doctorEmail = uniqueEmail('unverified-doctor');
  const doctor = await signUpVia(request, 'doctor', { name: 'Dr. Not Yet', email: doctorEmail }, { verified: false });
  const patientEmail = uniqueEmail('verified-patient');
  await signUpVia(request, 'patient', { name: 'Ola Verified', email: patientEmail });
  const res = await request.post(`${API_URL}/doctor/requestPatient`, { headers: auth(doctor), data: { email: patientEmail } });
  expect(res.status()).toBe(403);
  expect((await res.json()).error).toMatch(/^Verify your e-mail address first/);

  await page.goto(`/doctor/verify-email/${'x'.repeat(43)}`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Verify my e-mail address' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    "This verification link is invalid, already used or expired, or the account's e-mail or password changed since it was sent",
  );
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login/doctor');
});

// Someone signs up with another person's address: the link mailed to that person cannot verify the
// stranger's account without its password, and "I did not create this account" deletes it.
test('an unsolicited verification link asks for the password, refuses a wrong one, and can delete the account', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('unsolicited');
  await signUpVia(request, 'patient', { name: 'Not The Owner', email }, { verified: false });
  const mail = await waitForEmail(email, VERIFY_SUBJECT);
  const link = new RegExp(`${SHELL_URL}/patient/verify-email/[A-Za-z0-9_-]+`).exec(mail)![0];

  await page.goto(link);
  const verify = page.getByRole('button', { name: 'Verify my e-mail address' });
  await expect(verify).toBeDisabled(); // nothing to post without a password
  await page.getByLabel('Password').fill('a guess of the owner');
  await verify.click();
  await expect(page.getByRole('alert')).toHaveText('Current password is incorrect');

  await page.getByRole('button', { name: 'I did not create this account' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'The account made with this e-mail address was deleted. Thank you for telling us.',
  );
  // The account is gone: its password opens nothing, and the address is free for its owner.
  expect((await request.post(`${API_URL}/patient/login`, { data: { email, password: PASSWORD } })).status()).toBe(401);
  expect(
    (await request.post(`${API_URL}/patient/signup`, { data: { name: 'The Owner', email, password: PASSWORD } })).status(),
  ).toBe(201);
});
