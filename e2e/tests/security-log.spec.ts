import { expect, test } from '@playwright/test';
import { API_URL } from '../stack';
import { PASSWORD, enrolTwoFactor, logIn, signupExtras, uniqueEmail } from './helpers';

for (const role of ['patient', 'doctor'] as const) {
  test(`a failed sign-in shows in the ${role}'s own access history`, async ({ page, request }) => {
    const email = uniqueEmail(`${role}-seclog`);
    const signup = await request.post(`${API_URL}/${role}/signup`, {
      data:
        role === 'patient'
          ? { name: 'Lena Roth', email, password: PASSWORD, DOB: '1980-02-03', gender: 'Female' } // a complete profile: no detour
          : { name: 'Dr. Omar Vance', email, password: PASSWORD, ...signupExtras('doctor') },
    });
    expect(signup.status()).toBe(201);
    // Doctors must have a second factor before any page (REQUIRE_MFA_FOR); logIn passes its step.
    if (role === 'doctor') await enrolTwoFactor(request, role, email, (await signup.json()).token);
    // Someone tries a wrong password for this account.
    expect(
      (await request.post(`${API_URL}/${role}/login`, { data: { email, password: 'not the password at all' } })).status(),
    ).toBe(401);

    await page.goto('/');
    await logIn(page, role, email);
    await expect(page).toHaveURL(new RegExp(`/${role}/dashboard`));
    await page.getByRole('link', { name: 'See access history' }).click();
    await expect(page).toHaveURL(new RegExp(`/${role}/access-history$`));
    const history = page.getByRole('table', { name: 'Access history' });
    await expect(history.getByText('Someone tried to sign in with a wrong password')).toBeVisible();
    await expect(history.getByText('You signed in')).toBeVisible();
  });
}
