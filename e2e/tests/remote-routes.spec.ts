import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import type { Server } from 'node:http';
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore -- plain ESM script, no types
import { startWebServer } from '../../scripts/web-server.mjs';
import {
  EXTRA_SHELL_PORTS,
  PORTS,
  origin,
  runtimeConfig,
  serveApp,
  stopServer,
  tempDir,
  writeRuntimeConfig,
  spare,
} from '../stack';
import { qaBuild } from '../qa-builds';
import { PASSWORD, logIn, uniqueEmail, signUpVia } from './helpers';

test('a remote-patient release adds a route and its sidebar entry, and drops another, through the shell build as it is', async ({
  page,
  request,
}) => {
  // Its build may still be running in the background (e2e/qa-builds.ts).
  test.setTimeout(400_000);
  const shellPort = EXTRA_SHELL_PORTS[0];
  const patientPort = spare(8196);
  const dir = tempDir('qa-route');
  // Only remote-patient is rebuilt: its QA route (with a sidebar entry) added, its signed-in devices
  // page left out. The shell is the dist built before.
  const out = await qaBuild('qa-route');
  const configFile = join(dir, 'runtime-config.json');
  writeRuntimeConfig(configFile, runtimeConfig({ public: PORTS.public, patient: patientPort, doctor: PORTS.doctor }));
  const shell = await serveApp('shell', shellPort, configFile);
  const patient: Server = await startWebServer({ dir: out, port: patientPort, host: '127.0.0.1', runtimeConfigFile: configFile });
  const email = uniqueEmail('qa-route');
  await signUpVia(request, 'patient', { email, name: 'Lena Ortiz' });
  const sidebar = page.getByRole('complementary', { name: 'Account' });
  try {
    // The usual remote-patient has no such route (the shell's not-found screen) and no such entry.
    await page.goto('/patient/qa-probe');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await logIn(page, 'patient', email);
    await expect(sidebar.getByRole('link', { name: 'Signed-in devices' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'QA probe' })).toHaveCount(0);

    // The rebuilt remote, through the same shell build.
    await page.goto(`${origin(shellPort)}/patient/signup`);
    await expect(page.getByRole('heading', { name: 'Create your patient account' })).toBeVisible();
    await logIn(page, 'patient', email);
    await expect(sidebar.getByRole('link', { name: 'QA probe' })).toBeVisible();
    // In the place its `order` gives it; the dropped route's entry is gone with it.
    await expect(sidebar.getByRole('link')).toHaveText([
      'Personal Information',
      'QA probe',
      'Files',
      'Prescription',
      'Medical Records',
      'Assigned Doctors',
      'Two-Factor Authentication',
      'Notifications',
    ]);
    await sidebar.getByRole('link', { name: 'QA probe' }).click();
    await expect(page).toHaveURL(`${origin(shellPort)}/patient/qa-probe`);
    await expect(page.getByRole('heading', { name: 'QA probe' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.goto(`${origin(shellPort)}/patient/sessions`);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  } finally {
    await stopServer(shell);
    await stopServer(patient);
  }
});

test('the patient standalone host: its own login, a guarded page, log out back to its start', async ({ page, request }) => {
  const email = uniqueEmail('standalone');
  await signUpVia(request, 'patient', { email, name: 'Asha Verma' });
  const host = origin(PORTS.patient);

  // A guarded page sends a stranger to the host's start page, which is the patient login.
  await page.goto(`${host}/patient/edit`);
  await expect(page).toHaveURL(`${host}/login/patient`);
  await expect(page.getByRole('heading', { name: 'Patient Sign In' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(`${host}/patient/dashboard`);
  await expect(page.getByLabel('Profile summary')).toContainText('Asha Verma');

  const bar = page.getByRole('navigation', { name: 'Standalone' });
  await bar.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(`${host}/login/patient`);

  // No router developer 404: the host's own not-found screen.
  await page.goto(`${host}/no/such/page`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('the public standalone host links to the patient and doctor logins', async ({ page }) => {
  await page.goto(origin(PORTS.public));
  const bar = page.getByRole('navigation', { name: 'Standalone' });
  await expect(bar.getByRole('link', { name: 'Patient login (remote-patient)' })).toHaveAttribute(
    'href',
    `${origin(PORTS.patient)}/login/patient`,
  );
  await expect(bar.getByRole('link', { name: 'Doctor login (remote-doctor)' })).toHaveAttribute(
    'href',
    `${origin(PORTS.doctor)}/login/doctor`,
  );
});
