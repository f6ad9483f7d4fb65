import { expect, test } from '@playwright/test';
import { cpSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import sirv from 'sirv';
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore -- plain ESM script, no types
import { releaseRemote } from '../../scripts/release-remote.mjs';
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore -- plain ESM script, no types
import { writeStaticHeaders } from '../../scripts/security-headers.mjs';
import {
  EXTRA_SHELL_PORTS,
  PORTS,
  RELEASES_PORT,
  ROOT,
  origin,
  runtimeConfig,
  stopServer,
  tempDir,
  writeRuntimeConfig,
} from '../stack';
import { appTookOver, logIn, signUpVia, uniqueEmail, watchForViolations } from './helpers';

/**
 * A plain file server, as a bucket behind a CDN is: sirv with nothing of CareLoop's — no headers
 * but the CORS a bucket is configured with, every unknown page answered with index.html (a CDN's
 * error-page rule), no _headers read. The pages' only policy is their meta element.
 */
function serveFiles(dir: string, port: number): Promise<Server> {
  const files = sirv(dir, {
    single: true,
    etag: true,
    setHeaders: (res) => res.setHeader('Access-Control-Allow-Origin', '*'),
  });
  const server = createServer((req, res) => files(req, res, () => void res.writeHead(404).end()));
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

test('the shell and released remotes served as plain files: landing, sign-in and the remotes work under the meta policy', async ({
  page,
  request,
}) => {
  // The deployment of docs/deploy-static.md: the shell's files at one origin, each remote's
  // releases under its own folder of a second (the CDN's), runtime-config.json naming them.
  const dir = tempDir('static');
  const shellSite = join(dir, 'shell');
  const cdn = join(dir, 'cdn');
  const cdnUrl = origin(RELEASES_PORT);
  cpSync(join(ROOT, 'shell', 'dist'), shellSite, { recursive: true });
  const configFile = join(shellSite, 'runtime-config.json');
  writeRuntimeConfig(configFile, runtimeConfig(PORTS));
  for (const owner of ['public', 'patient', 'doctor'])
    releaseRemote({
      owner,
      dist: join(ROOT, `remote-${owner}`, 'dist'),
      site: join(cdn, owner),
      url: `${cdnUrl}/${owner}`,
      config: configFile,
    });
  const config = JSON.parse(readFileSync(configFile, 'utf8'));
  writeStaticHeaders({ dir: shellSite, runtimeConfig: config, meta: true });

  const servers = [await serveFiles(shellSite, EXTRA_SHELL_PORTS[0]), await serveFiles(cdn, RELEASES_PORT)];
  try {
    const violations = await watchForViolations(page);
    const fromCdn: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(cdnUrl)) fromCdn.push(new URL(r.url()).pathname);
    });
    const email = uniqueEmail('static');
    await signUpVia(request, 'patient', { email, name: 'Ana Static' });

    const landing = await page.goto(origin(EXTRA_SHELL_PORTS[0]));
    expect(landing!.headers()['content-security-policy']).toBeUndefined();
    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(meta).toContain(`script-src 'self' ${cdnUrl}`);
    expect(meta).not.toContain('frame-ancestors');
    await expect(page.getByRole('heading', { name: 'Empower Healthcare Decisions' })).toBeVisible();
    await appTookOver(page);

    // A remote page by its deep link (the file server answers index.html), then the patient's own.
    await page.goto(`${origin(EXTRA_SHELL_PORTS[0])}/doctor/signup`);
    await expect(page.getByRole('heading', { name: 'Create your doctor account' })).toBeVisible();
    await logIn(page, 'patient', email);
    await expect(page).toHaveURL(/\/patient\/dashboard$/);
    await expect(page.getByLabel('Profile summary')).toContainText('Ana Static');
    await expect(page.getByTestId('remote-error')).toHaveCount(0);

    for (const owner of ['public', 'patient', 'doctor'])
      expect(
        fromCdn.some((path) => new RegExp(`^/${owner}/releases/[^/]+/remoteEntry\\.js$`).test(path)),
        owner,
      ).toBe(true);
    expect(violations).toEqual([]);

    // The meta policy is in force: an inline script is refused.
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.head.append(script);
      return (window as unknown as { inlineRan?: boolean }).inlineRan ?? false;
    });
    expect(ran).toBe(false);
  } finally {
    for (const server of servers) await stopServer(server);
  }
});
