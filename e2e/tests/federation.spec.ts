import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import type { Server } from 'node:http';
import {
  EXTRA_SHELL_PORTS,
  PORTS,
  origin,
  runtimeConfig,
  serveApp,
  spare,
  stopServer,
  tempDir,
  writeRuntimeConfig,
} from '../stack';
import { PASSWORD, appTookOver, openMenu, uniqueEmail } from './helpers';

test('with remote-doctor down, the landing and patient pages work and the doctor area shows a contained error', async ({
  page,
}) => {
  const shellPort = EXTRA_SHELL_PORTS[0];
  const configFile = join(tempDir('down'), 'runtime-config.json');
  // Nothing listens on this port: the doctor remote is "stopped".
  writeRuntimeConfig(configFile, runtimeConfig({ public: PORTS.public, patient: PORTS.patient, doctor: spare(8199) }));
  const shell = await serveApp('shell', shellPort, configFile);
  try {
    await page.goto(origin(shellPort));
    await expect(page.getByRole('heading', { name: 'Empower Healthcare Decisions' })).toBeVisible();

    await openMenu(page, 'Create an account', 'As Doctor');
    await expect(page.getByTestId('remote-error')).toContainText('The doctor area could not be loaded.');
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

    // The rest keeps working in the same page: the patient remote signs a patient up.
    await openMenu(page, 'Create an account', 'As Patient');
    await page.getByLabel('Name').fill('Ravi Kumar');
    await page.getByLabel('Email').fill(uniqueEmail('patient-down'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Finish' }).click();
    await expect(page).toHaveURL(/\/patient\/dashboard$/);
    await expect(page.getByLabel('Profile summary')).toContainText('Ravi Kumar');
    await page.getByRole('link', { name: 'About' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('remote-error')).toHaveCount(0);
  } finally {
    await stopServer(shell);
  }
});

test('a failed remote loads on Retry once it is back', async ({ page }) => {
  const shellPort = EXTRA_SHELL_PORTS[0];
  const doctorPort = spare(8198);
  const configFile = join(tempDir('retry'), 'runtime-config.json');
  writeRuntimeConfig(configFile, runtimeConfig({ public: PORTS.public, patient: PORTS.patient, doctor: doctorPort }));
  const shell = await serveApp('shell', shellPort, configFile);
  let doctor: Server | undefined;
  try {
    await page.goto(`${origin(shellPort)}/doctor/signup`);
    await expect(page.getByTestId('remote-error')).toBeVisible();
    doctor = await serveApp('remote-doctor', doctorPort, configFile);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: 'Create your doctor account' })).toBeVisible();
  } finally {
    await stopServer(shell);
    if (doctor) await stopServer(doctor);
  }
});

test('remote-public moved to another port by editing only runtime-config.json still loads', async ({ page }) => {
  const shellPort = EXTRA_SHELL_PORTS[1];
  const movedPort = spare(8197);
  const configFile = join(tempDir('moved'), 'runtime-config.json');
  writeRuntimeConfig(configFile, runtimeConfig({ public: PORTS.public, patient: PORTS.patient, doctor: PORTS.doctor }));
  const shell = await serveApp('shell', shellPort, configFile);
  const moved = await serveApp('remote-public', movedPort, configFile);
  try {
    await page.goto(origin(shellPort));
    await expect(page.getByRole('heading', { name: 'Empower Healthcare Decisions' })).toBeVisible();
    await appTookOver(page);

    // Redeploy: the same remote now lives on another port; only the config file changes.
    writeRuntimeConfig(configFile, runtimeConfig({ public: movedPort, patient: PORTS.patient, doctor: PORTS.doctor }));
    const entries: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/remoteEntry.js')) entries.push(r.url());
    });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Empower Healthcare Decisions' })).toBeVisible();
    await appTookOver(page);
    expect(entries).toContain(`${origin(movedPort)}/remoteEntry.js`);
    expect(entries).not.toContain(`${origin(PORTS.public)}/remoteEntry.js`);
  } finally {
    await stopServer(shell);
    await stopServer(moved);
  }
});
