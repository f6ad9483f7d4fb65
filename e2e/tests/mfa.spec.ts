import { expect, test } from '@playwright/test';
import { freshTotpCode, logIn, logOut, openMenu, PASSWORD, rememberAuthenticator, signUpVia, uniqueEmail } from './helpers';

// Doctors must have two-factor on before any patient data (REQUIRE_MFA_FOR's default): a new
// doctor is taken to the set-up page, enrols, keeps ten recovery codes, and can sign in with one once.

test('a new doctor is sent to two-factor set-up, enrols, saves ten recovery codes, reaches the worklist; a recovery code signs in once', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('mfa-doctor');
  await signUpVia(request, 'doctor', { name: 'Dr Ines Varga', email }, { twoFactor: false });

  await page.goto('/');
  await logIn(page, 'doctor', email);
  // The dashboard's worklist is refused (403): the app sends the doctor to the set-up page.
  await expect(page).toHaveURL(/\/doctor\/enable2fa$/);
  await expect(page.getByText('Two-factor authentication is required')).toBeVisible();
  await expect(page.getByText(/Most urgent first/)).toHaveCount(0);

  await page.getByRole('switch', { name: 'Enable two-factor authentication' }).check();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  rememberAuthenticator(email, secret, -Infinity);
  await page.getByLabel('Verification code').fill(await freshTotpCode(email));
  await expect(page.getByText('Verification Successful!')).toBeVisible();

  const codes = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  for (const c of recovery) expect(c).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
  const continueButton = page.getByRole('button', { name: 'Continue' });
  await expect(continueButton).toBeDisabled();
  await page.getByLabel('I have saved these codes').check();
  await continueButton.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(/^Most urgent first/)).toBeVisible();

  // The security page counts them.
  await page.goto('/doctor/enable2fa');
  await expect(page.getByTestId('recovery-codes-left')).toHaveText('10 unused recovery codes left.');

  // Signing in with a recovery code instead of the authenticator: once.
  await logOut(page);
  await openMenu(page, 'Sign In', 'As Doctor');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recovery[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await expect(page.getByText(/^Most urgent first/)).toBeVisible();

  await logOut(page);
  await openMenu(page, 'Sign In', 'As Doctor');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recovery[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Could not authenticate')).toBeVisible();
  await expect(page).toHaveURL(/\/login\/doctor$/);
});
