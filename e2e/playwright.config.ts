import { defineConfig } from '@playwright/test';
import { SHELL_URL } from './stack';

export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  // Two cores: one browser at a time keeps timings sane.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: SHELL_URL,
    // A failed test keeps its trace (actions, DOM snapshots, network, console). Without the screencast:
    // recording it for every test cost a third of the suite's time on CI's 2 cores (docs/testing.md).
    trace: { mode: 'retain-on-failure', screenshots: false },
    // Debian's Chromium; Playwright's own browser download is not reachable here.
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
