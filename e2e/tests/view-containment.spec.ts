import { expect, test, type Page, type Request, type Route } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PORTS, ROOT, origin } from '../stack';
import { logIn, signUpVia, uniqueEmail } from './helpers';

// One view of a remote fails while the remote itself is up: its chunks are failed, broken, held or
// removed by route interception, after the patient dashboard (same remote) has loaded.
const PATIENT = origin(PORTS.patient);
const isPatientScript = (url: string) => url.startsWith(`${PATIENT}/`) && url.endsWith('.js');

/** A signed-in patient on the dashboard; the URLs of remote-patient scripts loaded so far. */
async function onDashboard(page: Page): Promise<Set<string>> {
  const loaded = new Set<string>();
  const collect = (r: Request) => {
    if (isPatientScript(r.url())) loaded.add(r.url());
  };
  page.on('request', collect);
  const email = uniqueEmail('view-fault');
  await signUpVia(page.request, 'patient', { email, name: 'Meera Iyer' });
  // The page's timers on Playwright's clock (running as usual): expectContained moves it on.
  await page.clock.install();
  await page.goto('/');
  await logIn(page, 'patient', email);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await expect(page.getByLabel('Profile summary')).toContainText('Meera Iyer');
  page.off('request', collect);
  return loaded;
}

/** Requests per URL for remote-patient scripts the dashboard had not loaded: the edit view's chunks. */
function countViewChunks(page: Page, loaded: Set<string>): Map<string, number> {
  const counts = new Map<string, number>();
  page.on('request', (r: Request) => {
    if (isPatientScript(r.url()) && !loaded.has(r.url())) counts.set(r.url(), (counts.get(r.url()) ?? 0) + 1);
  });
  return counts;
}

async function openPersonalInformation(page: Page) {
  await page.getByRole('complementary', { name: 'Account' }).getByRole('link', { name: 'Personal Information' }).click();
  await expect(page).toHaveURL(/\/patient\/edit$/);
}

/** The panel is up, the dashboard gone, and no chunk was asked for more than 3 times, even a while later. */
async function expectContained(page: Page, counts: Map<string, number>) {
  const panel = page.getByTestId('remote-error');
  await expect(panel).toContainText('The patient area could not be loaded.');
  await expect(page.getByLabel('Profile summary')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  const settled = [...counts.values()];
  // "A while later" on the page's clock: every timer due in the next 3 s fires (a retry among
  // them would ask again); a round trip then lets any request it started be counted.
  await page.clock.runFor(3000);
  await page.evaluate(() => undefined);
  expect(counts.size).toBeGreaterThan(0);
  expect([...counts.values()]).toEqual(settled);
  for (const n of counts.values()) expect(n).toBeLessThanOrEqual(3);
}

/** Retry brings the view once its chunks are served, without loading the remote again. */
async function expectRetryRecovers(page: Page) {
  const again: string[] = [];
  page.on('request', (r) => {
    if (/\/(mf-manifest\.json|remoteEntry\.js)$/.test(r.url())) again.push(r.url());
  });
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByLabel('Name')).toBeVisible();
  await expect(page.getByTestId('remote-error')).toHaveCount(0);
  expect(again).toEqual([]);
}

test('a view whose chunk fails is contained with Retry after at most 3 requests; Retry loads it once served', async ({
  page,
}) => {
  const loaded = await onDashboard(page);
  const counts = countViewChunks(page, loaded);
  let failing = true;
  await page.route(
    (url) => isPatientScript(url.href) && !loaded.has(url.href),
    (route) => (failing ? route.abort('failed') : route.fallback()),
  );
  await openPersonalInformation(page);
  await expectContained(page, counts);
  failing = false;
  await expectRetryRecovers(page);
});

test('a view module that throws while it loads is contained with Retry', async ({ page }) => {
  const loaded = await onDashboard(page);
  const counts = countViewChunks(page, loaded);
  // Each module of the view's chunks throws while the page's flag is set (webpack's jsonp chunk format).
  const breakModules = `(function () {
    var list = (self.webpackChunkremote_patient = self.webpackChunkremote_patient || []);
    var push = list.push;
    list.push = function (chunk) {
      list.push = push;
      Object.keys(chunk[1]).forEach(function (id) {
        var factory = chunk[1][id];
        chunk[1][id] = function () {
          if (self.__breakView) throw new Error('view module broke while loading');
          return factory.apply(this, arguments);
        };
      });
      return push.call(list, chunk);
    };
  })();\n`;
  await page.evaluate(() => ((window as unknown as { __breakView: boolean }).__breakView = true));
  await page.route(
    (url) => isPatientScript(url.href) && !loaded.has(url.href),
    async (route: Route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, body: breakModules + (await answer.text()) });
    },
  );
  await openPersonalInformation(page);
  await expectContained(page, counts);
  await page.evaluate(() => ((window as unknown as { __breakView: boolean }).__breakView = false));
  await expectRetryRecovers(page);
});

test('a view whose chunk never answers is contained at the deadline with Retry', async ({ page }) => {
  const loaded = await onDashboard(page);
  const counts = countViewChunks(page, loaded);
  let hanging = true;
  const held: Route[] = [];
  await page.route(
    (url) => isPatientScript(url.href) && !loaded.has(url.href),
    (route) => (hanging ? void held.push(route) : route.fallback()),
  );
  await openPersonalInformation(page);
  const clicked = Date.now();
  await expect(page.getByTestId('remote-error')).toBeVisible({ timeout: 15_000 });
  // The view's deadline (VIEW_DEADLINE_MS, 6 s), measured from the click: not sooner, and not long after.
  const took = Date.now() - clicked;
  expect(took).toBeGreaterThanOrEqual(5500);
  expect(took).toBeLessThan(9000);
  await expectContained(page, counts);
  // The server answers again, the held requests included.
  hanging = false;
  await Promise.all(held.map((route) => route.fallback()));
  await expectRetryRecovers(page);
});

test('a deleted release folder is contained with Retry; Retry loads the view once it is back', async ({ page }) => {
  const loaded = await onDashboard(page);
  const counts = countViewChunks(page, loaded);
  let deleted = true;
  // Every file of the remote's release answers 404 (the page keeps the entry it loaded).
  await page.route(
    (url) => url.href.startsWith(`${PATIENT}/`),
    (route) => (deleted ? route.fulfill({ status: 404, body: 'Not Found' }) : route.fallback()),
  );
  await openPersonalInformation(page);
  await expectContained(page, counts);
  deleted = false;
  await expectRetryRecovers(page);
});

test('a remote whose manifest needs a newer shared-auth is explained before any of its code runs, logged once', async ({
  page,
}) => {
  const have = JSON.parse(readFileSync(join(ROOT, 'shared-auth', 'package.json'), 'utf8')).version as string;
  const [major, minor] = have.split('.').map(Number);
  const needs = `^${major}.${minor + 1}.0`;
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const patientCode: string[] = [];
  page.on('request', (r) => {
    if (isPatientScript(r.url())) patientCode.push(r.url());
  });
  // remote-patient's manifest as a release built against the next shared-auth would write it.
  await page.route(`${PATIENT}/mf-manifest.json`, async (route) => {
    const answer = await route.fetch();
    const manifest = await answer.json();
    for (const shared of manifest.shared) if (shared.name === '@careloop/shared-auth') shared.requiredVersion = needs;
    await route.fulfill({ response: answer, json: manifest });
  });

  await page.goto('/patient/signup');
  await expect(page.getByTestId('remote-incompatible')).toContainText(
    `This part of CareLoop needs a newer version of @careloop/shared-auth (${needs}, this page has ${have}); reload or contact support.`,
  );
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  // Another page of the same remote: explained again, not logged again; the other remotes still work.
  await page.getByRole('link', { name: 'About' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('remote-incompatible')).toBeVisible();
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(`@careloop/shared-auth ${needs}, this page has ${have}`);
  expect(patientCode).toEqual([]);
});
