import { expect, test, type Page } from '@playwright/test';
import { logIn, logOut, signUpVia, uniqueEmail } from './helpers';

/** A verified account (the link from its .eml followed): only those can be found and can ask. */
async function signUp(request: import('@playwright/test').APIRequestContext, role: 'patient' | 'doctor', name: string) {
  const email = uniqueEmail(role);
  await signUpVia(request, role, { name, email });
  return email;
}

const card = (page: Page, title: string) =>
  page.locator('section', { has: page.getByRole('heading', { name: title, exact: true }) });

test('a doctor requests a patient, the patient accepts, and the doctor lists the patient as assigned', async ({
  page,
  request,
}) => {
  const doctor = await signUp(request, 'doctor', 'Dr. Omar Haddad');
  const patient = await signUp(request, 'patient', 'Lena Fischer');

  await page.goto('/');
  await logIn(page, 'doctor', doctor);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await expect(page.getByLabel('Assigned patients')).toContainText('No assigned patients found');
  await card(page, 'Connect to Patients').getByRole('link', { name: 'Connect' }).click();
  await expect(page).toHaveURL(/\/doctor\/assign-patients$/);
  await page.getByLabel("Patient's email").fill(uniqueEmail('nobody'));
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByRole('alert')).toHaveText('Error: No patient with this e-mail');
  await page.getByLabel("Patient's email").fill(patient);
  await page.getByRole('button', { name: 'Send request' }).click();
  // The answer and the sender's list name the address typed, never the person (issue 11).
  await expect(page.getByRole('status')).toHaveText(`Request sent to ${patient}.`);
  await page.goto('/doctor/view-outgoing-requests');
  const outgoing = page.getByRole('list', { name: 'Outgoing requests' });
  await expect(outgoing).toContainText(patient);
  await expect(outgoing).not.toContainText('Lena Fischer');
  await expect(outgoing.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  await logOut(page);

  await logIn(page, 'patient', patient);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await card(page, 'Connect to Doctors').getByRole('link', { name: 'Incoming' }).click();
  await expect(page).toHaveURL(/\/patient\/view-incoming-requests$/);
  const incoming = page.getByRole('list', { name: 'Incoming requests' });
  await expect(incoming).toContainText('Dr. Omar Haddad');
  await incoming.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText("You're all caught-up :-)")).toBeVisible();
  await page.goto('/patient/dashboard');
  await expect(page.getByLabel('Assigned Doctors')).toContainText('Dr. Omar Haddad');
  await logOut(page);

  await logIn(page, 'doctor', doctor);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await expect(page.getByLabel('Assigned patients')).toContainText('Lena Fischer');
  await page.goto('/doctor/view-outgoing-requests');
  await expect(page.getByText("You're all caught-up :-)")).toBeVisible();
});

test('a patient requests a doctor and the doctor cancels it', async ({ page, request }) => {
  const doctor = await signUp(request, 'doctor', 'Dr. Ines Duarte');
  const patient = await signUp(request, 'patient', 'Tomas Berg');

  await page.goto('/');
  await logIn(page, 'patient', patient);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await card(page, 'Connect to Doctors').getByRole('link', { name: 'Connect' }).click();
  await expect(page).toHaveURL(/\/patient\/assign-doctors$/);
  await page.getByLabel("Doctor's email").fill(doctor);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByRole('status')).toHaveText(`Request sent to ${doctor}.`);
  // A second request for the same pair is refused while the first is pending.
  await page.getByLabel("Doctor's email").fill(doctor);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByRole('alert')).toHaveText('Error: A request between you is already pending');
  await logOut(page);

  await logIn(page, 'doctor', doctor);
  await expect(page).toHaveURL(/\/doctor\/dashboard$/);
  await page.goto('/doctor/view-incoming-requests');
  const incoming = page.getByRole('list', { name: 'Incoming requests' });
  await expect(incoming).toContainText('Tomas Berg');
  await incoming.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText("You're all caught-up :-)")).toBeVisible();
  await page.goto('/doctor/dashboard');
  await expect(page.getByLabel('Assigned patients')).toContainText('No assigned patients found');
  await logOut(page);

  await logIn(page, 'patient', patient);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await page.goto('/patient/view-outgoing-requests');
  await expect(page.getByText("You're all caught-up :-)")).toBeVisible();
});
