import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { API_URL, OIDC_CLIENT, OIDC_PORT } from '../stack';
import { auth, PASSWORD, storedToken, uniqueEmail } from './helpers';

// Issue 11 item 3: the Google hand-off's ?token= carries a one-time code, and a signed-in person who
// opens a hand-off link of another account is asked before anything changes.

type Issuer = import('oauth2-mock-server').OAuth2Server;
let issuer: Issuer;
/** Whose verified e-mail the mock "Google" puts into its next ID token. */
let googleEmail = '';

test.beforeAll(async () => {
  const { OAuth2Server } = await import('oauth2-mock-server');
  issuer = new OAuth2Server();
  await issuer.issuer.keys.generate('RS256');
  await issuer.start(OIDC_PORT, 'localhost');
  issuer.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, { aud: OIDC_CLIENT.id, email: googleEmail, email_verified: true, name: 'Other Person' });
  });
});
test.afterAll(async () => {
  await issuer?.stop();
});

/**
 * A real hand-off link, as someone else's browser gets it: the Google flow driven outside this page
 * (start → mock issuer → callback), the callback's redirect read, not followed.
 */
async function handoffCodeFor(request: APIRequestContext, email: string): Promise<string> {
  googleEmail = email;
  const start = await request.get(`${API_URL}/patient/auth/google`, { maxRedirects: 0 });
  expect(start.status()).toBe(302);
  const cookie = start.headers()['set-cookie'].split(';')[0];
  const back = await request.get(start.headers().location, { maxRedirects: 0 });
  expect(back.status()).toBe(302);
  const done = await request.get(back.headers().location, { maxRedirects: 0, headers: { cookie } });
  expect(done.status()).toBe(302);
  const location = new URL(done.headers().location);
  expect(location.pathname).toBe('/login/patient');
  expect(location.searchParams.get('role')).toBe('patient');
  return location.searchParams.get('token')!;
}

/** A patient signed up through the api and signed in through the login page. */
async function signedInPatient(page: Page, request: APIRequestContext, name: string) {
  const email = uniqueEmail('handoff');
  const res = await request.post(`${API_URL}/patient/signup`, { data: { name, email, password: PASSWORD } });
  expect(res.status()).toBe(201);
  // Straight to the login page: at 390 px the sign-in menu is inside the mobile menu.
  await page.goto('/login/patient');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await expect(page.getByLabel('Profile summary')).toContainText(email);
  return { email, token: (await storedToken(page))! };
}

const switchDialog = (page: Page) => page.getByRole('dialog', { name: 'Switch account?' });

test.describe('a signed-in patient opens a hand-off link of another account', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('is asked first; nothing changes until consent, and Stay keeps the first account', async ({ page, request }) => {
    const me = await signedInPatient(page, request, 'First Patient');
    const code = await handoffCodeFor(request, uniqueEmail('other'));

    await page.goto(`/patient/dashboard?token=${code}&role=patient`);
    const dialog = switchDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      `You are signed in as First Patient (${me.email}). Switch to the account from this Google sign-in?`,
    );
    await expect(page.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
    // The code left the address at once; the session is the first account's still.
    await expect(page).toHaveURL(/\/patient\/dashboard$/);
    expect(await storedToken(page)).toBe(me.token);
    // It fits a 390 px screen: both choices within the viewport.
    for (const name of ['Switch', 'Stay signed in']) {
      const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }

    await page.getByRole('button', { name: 'Stay signed in' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByLabel('Profile summary')).toContainText(me.email);
    expect(await storedToken(page)).toBe(me.token);
    expect((await request.get(`${API_URL}/patient/me`, { headers: auth(me.token) })).status()).toBe(200);
    // Stay left the code unused: it still exchanges (within its minute), once.
    const exchanged = await request.post(`${API_URL}/patient/auth/exchange`, { data: { code } });
    expect(exchanged.status()).toBe(200);
  });

  test('Switch signs in as the other account and ends the first session', async ({ page, request }) => {
    const me = await signedInPatient(page, request, 'Switching Patient');
    const code = await handoffCodeFor(request, uniqueEmail('target'));

    await page.goto(`/patient/dashboard?token=${code}&role=patient`);
    await switchDialog(page).getByRole('button', { name: 'Switch' }).click();
    // A Google-made patient completes the profile first.
    await expect(page).toHaveURL(/\/patient\/complete-profile$/);
    const now = await storedToken(page);
    expect(now).not.toBeNull();
    expect(now).not.toBe(me.token);
    expect(now).not.toBe(code);
    await expect.poll(async () => (await request.get(`${API_URL}/patient/me`, { headers: auth(me.token) })).status()).toBe(401);
  });
});

test('a plain session token in ?token= signs nobody in', async ({ page, request }) => {
  const email = uniqueEmail('victim');
  const victim = await request.post(`${API_URL}/patient/signup`, {
    data: { name: 'Token Owner', email, password: PASSWORD },
  });
  const { token } = await victim.json();

  await page.goto(`/patient/dashboard?token=${token}&role=patient`);
  // Sent away from the dashboard, the value off the address, and no session in this browser.
  await expect(page).not.toHaveURL(/dashboard|token=/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  expect(await storedToken(page)).toBeNull();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log Out' })).toHaveCount(0);
});

test('signed in, a link with a plain session token is refused even after Switch', async ({ page, request }) => {
  const me = await signedInPatient(page, request, 'Careful Patient');
  const other = await (
    await request.post(`${API_URL}/patient/signup`, {
      data: { name: 'Someone Else', email: uniqueEmail('else'), password: PASSWORD },
    })
  ).json();

  await page.goto(`/patient/dashboard?token=${other.token}&role=patient`);
  await switchDialog(page).getByRole('button', { name: 'Switch' }).click();
  await expect(page.getByRole('alert')).toContainText('That Google sign-in has expired or was already used.');
  await expect(page.getByLabel('Profile summary')).toContainText(me.email);
  expect(await storedToken(page)).toBe(me.token);
});

test('nobody signed in: the hand-off link on the login page is exchanged and signs in', async ({ page, request }) => {
  const code = await handoffCodeFor(request, uniqueEmail('fresh'));
  await page.goto(`/login/patient?token=${code}&role=patient`);
  await expect(page).toHaveURL(/\/patient\/complete-profile$/);
  const token = await storedToken(page);
  expect(token).not.toBeNull();
  expect(token).not.toBe(code);
  // The code is spent.
  expect((await request.post(`${API_URL}/patient/auth/exchange`, { data: { code } })).status()).toBe(400);
});
