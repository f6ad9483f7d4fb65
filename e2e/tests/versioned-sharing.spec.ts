import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore -- plain ESM script, no types
import { startWebServer } from '../../scripts/web-server.mjs';
import {
  EXTRA_SHELL_PORTS,
  PORTS,
  ROOT,
  origin,
  runtimeConfig,
  serveApp,
  stopServer,
  tempDir,
  writeRuntimeConfig,
  spare,
} from '../stack';
import { MAGENTA, PRIMARY, QA_BUILDS, qaBuild, sharedUiVersionOf, type QaBuildName } from '../qa-builds';
import { appTookOver, openMenu, signUpVia, uniqueEmail, PASSWORD } from './helpers';

/**
 * The next shared-ui release, as a team would ship it with its remote alone (e2e/qa-builds.ts: shared-ui's
 * sources with one file patched and its version bumped, as check-versions demands), built into one remote.
 */
async function sharedUiRelease(name: QaBuildName): Promise<string> {
  const { app } = QA_BUILDS[name];
  const out = await qaBuild(name);
  const manifest = JSON.parse(readFileSync(join(out, 'mf-manifest.json'), 'utf8'));
  // The remote's own version and its build hash (`1.0.0+23d09a9e`), whatever shared-ui it carries.
  const appVersion = JSON.parse(readFileSync(join(ROOT, app, 'package.json'), 'utf8')).version as string;
  expect(manifest.metaData.buildInfo.buildVersion).toMatch(new RegExp(`^${appVersion.replace(/\./g, '\\.')}\\+[0-9a-f]{8}$`));
  // shared-ui is built into the remote, not shared: no other app can be handed this release.
  expect(manifest.shared.map((entry: { name: string }) => entry.name)).not.toContain('@careloop/shared-ui');
  return out;
}

test('a shared-ui change built into remote-patient alone appears through the unchanged shell', async ({ page }) => {
  // Its build may still be running in the background (e2e/qa-builds.ts).
  test.setTimeout(400_000);
  const shellPort = EXTRA_SHELL_PORTS[0];
  const patientPort = spare(8195);
  const dir = tempDir('shared-ui-release');
  // A changed text in a major release (1.99.0) the page's own shared-ui does not satisfy.
  expect(sharedUiVersionOf('patient-shared-ui-major')).toBe('1.99.0');
  const out = await sharedUiRelease('patient-shared-ui-major');

  const configFile = join(dir, 'runtime-config.json');
  writeRuntimeConfig(configFile, runtimeConfig({ public: PORTS.public, patient: patientPort, doctor: PORTS.doctor }));
  const shell = await serveApp('shell', shellPort, configFile);
  const patient: Server = await startWebServer({ dir: out, port: patientPort, host: '127.0.0.1', runtimeConfigFile: configFile });
  try {
    // The shell loads its own shared-ui first; the redeployed remote still shows its own release.
    await page.goto(`${origin(shellPort)}/patient/signup`);
    await expect(page.getByRole('heading', { name: 'Open your new patient account' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

    // The usual deployment is untouched.
    await page.goto('/patient/signup');
    await expect(page.getByRole('heading', { name: 'Create your patient account' })).toBeVisible();
  } finally {
    await stopServer(shell);
    await stopServer(patient);
  }
});

test('a runtime-config.json naming remoteEntry.js URLs, as older ones do, still loads the remotes', async ({ page }) => {
  const shellPort = EXTRA_SHELL_PORTS[1];
  const configFile = join(tempDir('entry-urls'), 'runtime-config.json');
  writeRuntimeConfig(
    configFile,
    runtimeConfig({ public: PORTS.public, patient: PORTS.patient, doctor: PORTS.doctor }, 'remoteEntry.js'),
  );
  const shell = await serveApp('shell', shellPort, configFile);
  try {
    await page.goto(origin(shellPort));
    await expect(page.getByRole('heading', { name: 'Empower Healthcare Decisions' })).toBeVisible();
    await appTookOver(page);
    await page.goto(`${origin(shellPort)}/patient/signup`);
    await expect(page.getByRole('heading', { name: 'Create your patient account' })).toBeVisible();
  } finally {
    await stopServer(shell);
  }
});

/** `#0b6e69` as getComputedStyle reports it: `rgb(11, 110, 105)`. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

test("remote-doctor's shared-ui release changes the doctor pages only, not the patient, public or shell pages after it in the tab", async ({
  page,
}) => {
  test.setTimeout(400_000);
  const shellPort = EXTRA_SHELL_PORTS[0];
  const doctorPort = spare(8194);
  const dir = tempDir('doctor-shared-ui');
  const own = JSON.parse(readFileSync(join(ROOT, 'shared-ui', 'package.json'), 'utf8')).version as string;
  const [major, minor] = own.split('.').map(Number);
  // A minor release, within every other app's ^range of shared-ui: the case where sharing by range
  // handed the doctor team's release to everyone who loaded shared-ui after it.
  expect(sharedUiVersionOf('doctor-shared-ui-minor')).toBe(`${major}.${minor + 1}.0`);
  const teal = readFileSync(join(ROOT, 'shared-ui', 'src', 'theme.ts'), 'utf8').match(PRIMARY)![1];
  const out = await sharedUiRelease('doctor-shared-ui-minor');
  const email = uniqueEmail('isolated-ui');
  await signUpVia(page.request, 'patient', { email, name: 'Asha Rao' });

  const configFile = join(dir, 'runtime-config.json');
  writeRuntimeConfig(configFile, runtimeConfig({ public: PORTS.public, patient: PORTS.patient, doctor: doctorPort }));
  const shell = await serveApp('shell', shellPort, configFile);
  const doctor: Server = await startWebServer({ dir: out, port: doctorPort, host: '127.0.0.1', runtimeConfigFile: configFile });
  const background = (locator: ReturnType<typeof page.locator>, hex: string) =>
    expect(locator).toHaveCSS('background-color', rgb(hex));
  try {
    // A doctor page first, before any other remote has loaded a view: the doctor team's release shows.
    await page.goto(`${origin(shellPort)}/doctor/signup`);
    const doctorSignup = page.getByRole('form', { name: 'Doctor signup' });
    await expect(doctorSignup).toBeVisible();
    await background(doctorSignup.getByRole('button', { name: 'Next' }), MAGENTA);

    // Then, in the same tab, the patient signup (remote-patient) ...
    await openMenu(page, 'Create an account', 'As Patient');
    const patientSignup = page.getByRole('form', { name: 'Patient signup' });
    await expect(patientSignup).toBeVisible();
    await background(patientSignup.getByRole('button', { name: 'Next' }), teal);

    // ... the public login (remote-public) ...
    await openMenu(page, 'Sign In', 'As Patient');
    await expect(page).toHaveURL(/\/login\/patient$/);
    const logInButton = page.getByRole('button', { name: 'Log In' });
    await background(logInButton, teal);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await logInButton.click();

    // ... the patient dashboard, and the shell's own navigation, all on the shared-ui they were built with.
    await expect(page).toHaveURL(/\/patient\/dashboard$/);
    await expect(page.getByLabel('Profile summary')).toContainText('Asha Rao');
    await background(page.getByRole('link', { name: 'View', exact: true }).first(), teal);
    await background(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log Out' }), teal);
  } finally {
    await stopServer(shell);
    await stopServer(doctor);
  }
});
