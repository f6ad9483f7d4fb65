import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { API_URL } from '../stack';
import { PASSWORD, auth, connectedPair, logIn, logOut, passCodeStep, storedToken } from './helpers';

// HIPAA §164.312(a)(2)(iii): after 15 idle minutes (the default) the app warns for the last 60 s,
// then ends the session on the server and here. Drafts of long forms are kept by the api, never in
// the browser: nothing of a patient stays behind a signed-out screen, and the next sign-in — in any
// tab — lists them and resumes them where they were left. Time runs on Playwright's fake clock.
const PEOPLE = { doctor: { name: 'Dr Lena Berg' }, patient: { name: 'Omar Haddad', DOB: '1975-06-30' } };

async function signedInDoctor(page: Page, width = 1280) {
  const pair = await connectedPair(page.request, PEOPLE);
  await page.clock.install();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await logIn(page, 'doctor', pair.doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  // The dashboard itself, not just its URL: a jump of the fake clock while the doctor area still
  // loads would run out its load deadline (contained as unavailable, no guard left to redirect).
  await expect(page.getByRole('link', { name: 'See access history' })).toBeVisible();
  await page.setViewportSize({ width, height: 900 });
  return pair;
}

const warning = (page: Page) => page.getByRole('alertdialog');

for (const width of [1280, 390]) {
  test(`at ${width} px: warned in the last minute, "Stay signed in" keeps the session, silence signs out on the server`, async ({
    page,
  }) => {
    await signedInDoctor(page, width);
    const token = (await storedToken(page))!;

    await page.clock.fastForward('13:50');
    await expect(warning(page)).toHaveCount(0);
    await page.clock.fastForward('00:15');
    await expect(warning(page)).toBeVisible();
    await expect(warning(page)).toContainText(/You will be signed out in \d+ s for your security/);
    const stay = warning(page).getByRole('button', { name: 'Stay signed in' });
    await expect(stay).toBeFocused();
    await expect(stay).toBeInViewport();
    expect(await axeProblems(page)).toEqual([]);
    await stay.click();
    await expect(warning(page)).toHaveCount(0);

    // A fresh 15 minutes from the click: 14:30 later still signed in, then silence ends it.
    await page.clock.fastForward('14:30');
    await expect(page).toHaveURL(/\/doctor\/dashboard$/);
    await expect(warning(page)).toBeVisible();
    await page.clock.fastForward('00:31');
    await expect(page).toHaveURL(/\/login\/doctor$/);
    await expect(page.getByText('You were signed out after 15 minutes without activity')).toBeVisible();
    expect(await storedToken(page)).toBeNull();
    // Ended on the server too: the old token is refused.
    expect((await page.request.get(`${API_URL}/doctor/me`, { headers: auth(token) })).status()).toBe(401);
  });
}

test('activity in one tab keeps the other tab signed in', async ({ page, context }) => {
  await signedInDoctor(page);
  const other = await context.newPage();
  await other.goto('/doctor/all-medical-records');
  await expect(other.getByRole('heading', { name: 'Medical Records' })).toBeVisible();

  await page.clock.fastForward('10:00');
  await other.keyboard.press('Tab');
  await other.clock.fastForward('00:02');
  await page.clock.fastForward('10:00');
  // 20 minutes since the first tab was used, but only ~10 since the second one was.
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await expect(warning(page)).toHaveCount(0);
  await page.clock.fastForward('06:00');
  await expect(page).toHaveURL(/\/login\/doctor$/);
});

for (const width of [1280, 390]) {
  test(`at ${width} px: after the automatic logoff the draft finds the doctor: listed after sign-in in a new tab, resumed at the step left`, async ({
    page,
    context,
  }) => {
    const pair = await signedInDoctor(page, width);
    await page.goto(`/medical-record/create/${pair.patientId}`);
    await page.getByLabel('Title').fill('Breathless since Tuesday');
    await page.getByLabel('Mode of admission').selectOption('Emergency');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('History of presenting complaints').fill('Worse on lying flat');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText(/^Draft saved /)).toBeVisible();

    await page.clock.fastForward('15:05');
    await expect(page).toHaveURL(/\/login\/doctor$/);
    // Nothing of the patient stays in the browser: the draft is kept by the api.
    expect(await storageHolds(page, 'Worse on lying flat')).toBe(false);

    // Another tab, signed in afresh: the dashboard says what was left and where.
    const tab = await context.newPage();
    await tab.setViewportSize({ width, height: 900 });
    await tab.goto('/login/doctor');
    await logInHere(tab, pair.doctorEmail);
    const notice = tab.getByRole('region', { name: 'Unfinished work' });
    await expect(notice).toContainText(/Unfinished record for Omar Haddad, (just now|\d+ minutes? ago), at step 3 of 8/);
    await expect(notice).toContainText('Born 30 Jun 1975');
    expect(await axeProblems(tab)).toEqual([]);
    await notice.getByRole('button', { name: 'Resume' }).click();
    await expect(tab).toHaveURL(new RegExp(`/medical-record/create/${pair.patientId}$`));
    await expect(tab.getByRole('list', { name: 'Step 3 of 8' })).toBeVisible();
    await expect(tab.getByText(/Restore your unsaved draft/)).toHaveCount(0);
    await tab.getByRole('button', { name: 'Back' }).click();
    await expect(tab.getByLabel('History of presenting complaints')).toHaveValue('Worse on lying flat');
    await tab.getByRole('button', { name: 'Back' }).click();
    await expect(tab.getByLabel('Title')).toHaveValue('Breathless since Tuesday');
  });
}

test('an eight-step record draft survives leaving the form while signed in; Restore brings it back, Discard drops it', async ({
  page,
}) => {
  const pair = await signedInDoctor(page);
  await page.goto(`/medical-record/create/${pair.patientId}`);
  await page.getByLabel('Title').fill('Chest pain on exertion');
  await page.getByLabel('Mode of admission').selectOption('Emergency');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('History of presenting complaints').fill('Tight chest climbing stairs');

  await page.goto('/doctor/dashboard');
  await page.goto(`/medical-record/create/${pair.patientId}`);
  await expect(page.getByText(/^Restore your unsaved draft from .+\?$/)).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);
  await page.getByRole('button', { name: 'Restore' }).click();
  // back at the step it was left on
  await expect(page.getByRole('list', { name: 'Step 2 of 8' })).toBeVisible();
  await expect(page.getByLabel('History of presenting complaints')).toHaveValue('Tight chest climbing stairs');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Title')).toHaveValue('Chest pain on exertion');
  await expect(page.getByLabel('Mode of admission')).toHaveValue('Emergency');

  await page.goto(`/medical-record/create/${pair.patientId}`);
  const discarded = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/doctor/drafts/'));
  await page.getByRole('button', { name: 'Discard' }).click();
  expect((await discarded).status()).toBe(204);
  await page.goto(`/medical-record/create/${pair.patientId}`);
  await expect(page.getByRole('button', { name: 'Next' })).toBeVisible();
  await expect(page.getByText(/Restore your unsaved draft/)).toHaveCount(0);
});

test('an explicit logout leaves nothing in the browser; the draft is offered again after signing in, and sending deletes it', async ({
  page,
}) => {
  const pair = await signedInDoctor(page);
  await page.goto(`/create-prescription/${pair.patientId}`);
  await page.getByLabel('Drug').fill('Warfarin');
  await expect(page.getByText(/^Draft saved /)).toBeVisible();
  await logOut(page);
  expect(await storageHolds(page, 'Warfarin')).toBe(false);
  await page.goto('/');
  await logIn(page, 'doctor', pair.doctorEmail);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await expect(page.getByRole('region', { name: 'Unfinished work' })).toContainText('Unfinished prescription for Omar Haddad');
  await page.goto(`/create-prescription/${pair.patientId}`);
  await expect(page.getByText(/^Restore your unsaved draft from .+\?$/)).toBeVisible();
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByLabel('Drug')).toHaveValue('Warfarin');
  await page.getByLabel('Dosage').fill('5 mg');
  await page.getByLabel('Route').fill('Oral');
  await page.getByLabel('Frequency').fill('Once a day');
  await page.getByLabel('How long').selectOption('long-term');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/prescription$/);
  await page.goto('/doctor/dashboard');
  await expect(page.getByRole('link', { name: 'See access history' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Unfinished work' })).toHaveCount(0);
});

test('two tabs on one draft: the older page is told the draft changed elsewhere, and replaces it only when the doctor chooses', async ({
  page,
  context,
}) => {
  const pair = await signedInDoctor(page);
  const form = `/create-prescription/${pair.patientId}`;
  await page.goto(form);
  await page.getByLabel('Drug').fill('Warfarin');
  await expect(page.getByText(/^Draft saved /)).toBeVisible();

  const other = await context.newPage();
  await other.goto(form);
  await other.getByRole('button', { name: 'Restore' }).click();
  await other.getByLabel('Dosage').fill('5 mg');
  await expect(other.getByText(/^Draft saved /)).toBeVisible();

  // the first tab has not seen the second's save: its next save is refused, and it says so
  await page.getByLabel('Dosage').fill('10 mg');
  await expect(page.getByText(/This draft was changed in another tab or on another device/)).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);
  await page.getByRole('button', { name: "Keep this page's version" }).click();
  await expect(page.getByText(/^Draft saved /)).toBeVisible();

  await other.reload();
  await other.getByRole('button', { name: 'Restore' }).click();
  await expect(other.getByLabel('Drug')).toHaveValue('Warfarin');
  await expect(other.getByLabel('Dosage')).toHaveValue('10 mg');
});

/** Signs in on the login page the idle logoff left us on. */
async function logInHere(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await passCodeStep(page, email);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
}

/** Axe violations of any impact on the page as it is (the warning, the restore offer, the drafts notice). */
async function axeProblems(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => v.id);
}

/** Whether any of the browser's storage for the app holds the text (a draft must not). */
const storageHolds = (page: Page, text: string) =>
  page.evaluate(
    (t) => [localStorage, sessionStorage].some((store) => Object.keys(store).some((k) => (store.getItem(k) ?? '').includes(t))),
    text,
  );
