import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { passCodeStep, signUpVia, uniqueEmail } from './helpers';
import { waitForEmail } from './mail';

// Connection events are never silent: the other person gets an inbox entry, an unread count on
// the bell in the top bar, and an e-mail (with no patient identity to a doctor, nothing clinical
// to a patient). Walked at a laptop's and a phone's width, each person in their own browser.
const WIDTHS = [1280, 390];
test.describe.configure({ timeout: 240_000 });

/** Signs in on the role's login page (at 390 px the sign-in menu is inside the mobile menu). */
async function signedIn(browser: Browser, role: 'patient' | 'doctor', email: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`/login/${role}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await page.getByRole('button', { name: 'Log In' }).click();
  await passCodeStep(page, email);
  await expect(page).toHaveURL(new RegExp(`/${role}/dashboard$`));
  return page;
}

const bell = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByTestId('notification-badge');

/** Nothing of any impact: every axe rule, on the page as it is now. */
async function expectNoAxeViolations(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const fitsWidth = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

for (const width of WIDTHS) {
  test(`at ${width} px: request → the patient's bell and e-mail → accept → the doctor is told → access ended → the doctor is told who`, async ({
    browser,
    request,
  }) => {
    const doctorEmail = uniqueEmail('doctor');
    const patientEmail = uniqueEmail('patient');
    await signUpVia(request, 'doctor', { name: 'Dr. Ana Ruiz', email: doctorEmail });
    await signUpVia(request, 'patient', { name: 'Maria Lopez', email: patientEmail, DOB: '1985-03-12' });
    const doctor = await signedIn(browser, 'doctor', doctorEmail, width);
    const patient = await signedIn(browser, 'patient', patientEmail, width);
    await expect(bell(patient)).toHaveAccessibleName('Notifications');

    // The doctor asks to connect.
    await doctor.goto('/doctor/assign-patients');
    await doctor.getByLabel("Patient's email").fill(patientEmail);
    await doctor.getByRole('button', { name: 'Send request' }).click();
    await expect(doctor.getByRole('status')).toHaveText(`Request sent to ${patientEmail}.`);

    // The patient's bell counts it (next visit), and an e-mail says who asks and where to sign in.
    await patient.reload();
    await expect(bell(patient)).toHaveAccessibleName('Notifications, 1 unread');
    const mail = await waitForEmail(patientEmail, 'CareLoop: Dr. Ana Ruiz asked to connect with you');
    expect(mail).toContain('/login/patient');
    await bell(patient).click();
    await expect(patient).toHaveURL(/\/patient\/notifications$/);
    const patientInbox = patient.getByRole('list', { name: 'Notifications' });
    await expect(patientInbox.getByRole('listitem', { name: 'Unread: Dr. Ana Ruiz asked to connect with you' })).toBeVisible();
    await fitsWidth(patient, width);
    await expectNoAxeViolations(patient);

    // Opening it marks it read and leads to the request: accept.
    await patientInbox.getByRole('link', { name: 'Dr. Ana Ruiz asked to connect with you' }).click();
    await expect(patient).toHaveURL(/\/patient\/view-incoming-requests$/);
    await expect(bell(patient)).toHaveAccessibleName('Notifications');
    const incoming = patient.getByRole('list', { name: 'Incoming requests' });
    await incoming.getByRole('button', { name: 'Accept' }).click();
    await expect(patient.getByText("You're all caught-up :-)")).toBeVisible();

    // The doctor is told, with who it is (date of birth and e-mail tell two of one name apart).
    await doctor.reload();
    await expect(bell(doctor)).toHaveAccessibleName('Notifications, 1 unread');
    await bell(doctor).click();
    const doctorInbox = doctor.getByRole('list', { name: 'Notifications' });
    const accepted = doctorInbox.getByRole('listitem', { name: 'Unread: Maria Lopez accepted your connection request' });
    await expect(accepted).toContainText('Born 12 Mar 1985');
    await expect(accepted).toContainText(patientEmail);
    await doctor.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(bell(doctor)).toHaveAccessibleName('Notifications');

    // The patient ends the doctor's access.
    await patient.goto('/patient/dashboard');
    const doctors = patient.getByLabel('Assigned Doctors');
    await doctors.getByRole('button', { name: 'End access: Dr. Ana Ruiz' }).click();
    await patient
      .getByRole('group', { name: "End Dr. Ana Ruiz's access to your records?" })
      .getByRole('button', { name: 'End access' })
      .click();
    await expect(doctors.getByRole('status')).toHaveText('Access ended.');

    // The doctor is told, naming the patient as last known, and what it means.
    await doctor.reload();
    await expect(bell(doctor)).toHaveAccessibleName('Notifications, 1 unread');
    const ended = doctorInbox.getByRole('listitem', { name: 'Unread: Maria Lopez ended your access to their records' });
    await expect(ended).toContainText('Born 12 Mar 1985');
    await expect(ended).toContainText(patientEmail);
    await expect(ended).toContainText("You can no longer see this patient's records.");
    await fitsWidth(doctor, width);
    await expectNoAxeViolations(doctor);
    // Its e-mail says it happened, never who: that is for the signed-in inbox.
    const endedMail = await waitForEmail(doctorEmail, 'CareLoop: A patient ended your access to their records');
    expect(endedMail).not.toContain('Maria');
    expect(endedMail).not.toContain(patientEmail);

    // E-mail settings: one kind off, saved, and said so.
    await doctor.getByRole('link', { name: 'E-mail settings' }).click();
    await expect(doctor).toHaveURL(/\/doctor\/notifications\/settings$/);
    const choices = doctor.getByRole('group', { name: 'E-mail me when' });
    await choices.getByRole('checkbox', { name: 'A patient asks to connect with you' }).uncheck();
    await doctor.getByRole('button', { name: 'Save' }).click();
    await expect(doctor.getByRole('status').filter({ hasText: 'Saved.' })).toHaveText(
      'Saved. Your e-mail choices are up to date.',
    );
    await doctor.reload();
    await expect(choices.getByRole('checkbox', { name: 'A patient asks to connect with you' })).not.toBeChecked();
    await expect(choices.getByRole('checkbox', { name: 'A patient ends your access to their records' })).toBeChecked();
    await fitsWidth(doctor, width);
    await expectNoAxeViolations(doctor);

    await doctor.context().close();
    await patient.context().close();
  });
}
