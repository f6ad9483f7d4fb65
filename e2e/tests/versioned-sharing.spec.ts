import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
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
import { appTookOver } from './helpers';

test('a shared-ui change built into remote-patient alone appears through the unchanged shell', async ({ page }) => {
  // Building one remote on a shared machine takes a while.
  test.setTimeout(400_000);
  const shellPort = EXTRA_SHELL_PORTS[0];
  const patientPort = spare(8195);
  const dir = tempDir('shared-ui-release');
  // shared-ui's next release: a changed text and a bumped version, as check-versions demands.
  const sharedUi = join(dir, 'shared-ui');
  cpSync(join(ROOT, 'shared-ui', 'src'), join(sharedUi, 'src'), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(ROOT, 'shared-ui', 'package.json'), 'utf8'));
  writeFileSync(join(sharedUi, 'package.json'), JSON.stringify({ ...pkg, version: '1.99.0' }));
  const account = join(sharedUi, 'src', 'account.tsx');
  const source = readFileSync(account, 'utf8');
  expect(source).toContain('<Heading>Create your ');
  writeFileSync(account, source.replace('<Heading>Create your ', '<Heading>Open your new '));

  const out = join(dir, 'dist');
  await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'webpack'), ['--mode', 'production', '--output-path', out], {
    cwd: join(ROOT, 'remote-patient'),
    env: { ...process.env, CARELOOP_SHARED_UI_DIR: sharedUi },
  });
  const manifest = JSON.parse(readFileSync(join(out, 'mf-manifest.json'), 'utf8'));
  expect(manifest.metaData.buildInfo.buildVersion).toBe(
    JSON.parse(readFileSync(join(ROOT, 'remote-patient', 'package.json'), 'utf8')).version,
  );
  expect(manifest.shared).toContainEqual(expect.objectContaining({ name: 'shared-ui', version: '1.99.0', singleton: false }));

  const configFile = join(dir, 'runtime-config.json');
  writeRuntimeConfig(configFile, runtimeConfig({ public: PORTS.public, patient: patientPort, doctor: PORTS.doctor }));
  const shell = await serveApp('shell', shellPort, configFile);
  const patient: Server = await startWebServer({ dir: out, port: patientPort, host: '127.0.0.1', runtimeConfigFile: configFile });
  try {
    // The shell loads shared-ui 1.1.0 for itself first; the redeployed remote still shows its own release.
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
