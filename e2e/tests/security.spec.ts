import { expect, test } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { API_URL, OIDC_CLIENT, OIDC_PORT, PORTS } from '../stack';
import { RESET_SUBJECT, waitForEmail } from './mail';
import { PASSWORD, logIn, logOut, signupExtras, uniqueEmail } from './helpers';

const totp = (secret: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

test('a patient turns two-factor on with a code from the shown secret, logs in with password + code, turns it off', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('patient-2fa');
  const signup = await request.post(`${API_URL}/patient/signup`, { data: { name: 'Nia Obi', email, password: PASSWORD } });
  expect(signup.status()).toBe(201);
  await page.goto('/');
  await logIn(page, 'patient', email);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);

  await page.getByRole('link', { name: 'Set up' }).click();
  await expect(page).toHaveURL(/\/patient\/enable2fa$/);
  const toggle = page.getByRole('switch', { name: 'Enable two-factor authentication' });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Verification code').fill('000000');
  await expect(page.getByText('Verification Failed.')).toBeVisible();
  await page.getByLabel('Verification code').fill(totp(secret).generate());
  await expect(page.getByText('Verification Successful!')).toBeVisible();
  await expect(page.getByText(/currently on/)).toBeVisible();

  await logOut(page);
  await logIn(page, 'patient', email);
  await expect(page.getByLabel('6-digit code from your authenticator app')).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
  // The setup code may not be replayed: use the next time step's code (inside the ±1 window).
  await page
    .getByLabel('6-digit code from your authenticator app')
    .fill(totp(secret).generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/patient\/dashboard$/);

  // Off: the switch starts off on every visit (SPEC §4). While two-factor is on no new QR code is
  // given (turn it off first), and turning it off asks for a code or the password (issue 11).
  await page.goto('/patient/enable2fa');
  await expect(page.getByText(/currently on/)).toBeVisible();
  await page.getByRole('switch').check();
  await expect(page.getByText('Two-factor authentication is already on: turn it off first')).toBeVisible();
  await expect(page.getByTestId('totp-secret')).toHaveCount(0);
  await page.getByRole('switch').uncheck();
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByText(/currently off/)).toBeVisible();
  await logOut(page);
  await logIn(page, 'patient', email);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
});

test('a doctor resets a forgotten password from the link in the .eml and logs in with the new one', async ({ page, request }) => {
  const email = uniqueEmail('doctor-reset');
  await request.post(`${API_URL}/doctor/signup`, {
    data: { name: 'Dr. Ana Ruiz', email, password: PASSWORD, ...signupExtras('doctor') },
  });
  await page.goto('/login/doctor');
  await page.getByRole('link', { name: 'Forgot Password' }).click();
  await expect(page).toHaveURL(/\/doctor\/forgot-password$/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toHaveText('If an account exists for this e-mail, a reset link has been sent.');

  const message = await waitForEmail(email, RESET_SUBJECT);
  expect(message).toMatch(/^Subject: Reset your CareLoop password/m);
  const link = message.match(
    new RegExp(`http://localhost:${PORTS.shell}/doctor/reset-password/[0-9a-f-]{36}/[A-Za-z0-9_-]+`),
  )![0];
  await page.goto(link);
  const newPassword = 'my new clinic passphrase';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat the new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password has been reset. You can now log in.')).toBeVisible();

  // The link works once.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('yet another passphrase');
  await page.getByLabel('Repeat the new password').fill('yet another passphrase');
  await page.getByRole('button', { name: 'Set new password' }).click();
  // The spec's failure text, then why (passwords.spec checks the reason).
  await expect(page.getByRole('alert')).toHaveText(/^Could not authenticate\b/);

  await page.goto('/');
  await logIn(page, 'doctor', email, PASSWORD);
  await expect(page.getByRole('alert')).toHaveText('Could not authenticate');
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Log In' }).click();
  // Signed in; two-factor is off, which doctors must turn on first (REQUIRE_MFA_FOR).
  await expect(page).toHaveURL(/\/doctor\/enable2fa$/);
});

test('a patient signs in through the OpenID Connect provider, completes the profile and reaches the dashboard', async ({
  page,
}) => {
  const { OAuth2Server } = await import('oauth2-mock-server');
  const issuer = new OAuth2Server();
  await issuer.issuer.keys.generate('RS256');
  await issuer.start(OIDC_PORT, 'localhost');
  const email = uniqueEmail('google');
  issuer.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, { aud: OIDC_CLIENT.id, email, email_verified: true, name: 'Grace Hopper' });
  });
  try {
    await page.goto('/login/patient');
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/patient\/complete-profile$/);
    expect(await page.evaluate(() => localStorage.getItem('role'))).toBe('patient');

    await page.getByLabel('Date of birth').fill('1985-12-09');
    await expect(page.getByLabel('Gender').locator('option', { hasText: 'Prefer not to say' })).toHaveCount(0);
    await page.getByLabel('Gender').selectOption('Female');
    await page.getByLabel('Marital status').selectOption('Married');
    await page.getByLabel('Occupation').fill('Engineer');
    await page.getByLabel('State').fill('Virginia');
    await page.getByLabel('City').fill('Arlington');
    await page.getByLabel('Street').fill('1 Navy Yard');
    await page.getByLabel('Pin code').fill('22202');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Profile completed successfully!')).toBeVisible();
    await expect(page).toHaveURL(/\/patient\/dashboard$/);
    const summary = page.getByLabel('Profile summary');
    await expect(summary).toContainText('Grace Hopper');
    await expect(summary).toContainText(email);
    await expect(summary).toContainText('1 Navy Yard, Arlington, Virginia, 22202');
  } finally {
    await issuer.stop();
  }
});
