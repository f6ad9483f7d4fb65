// Section 3 — the web apps as Chromium sees them: gzipped JS downloaded before the page's heading is
// visible (federated landing, single-bundle landing, patient dashboard) and Lighthouse performance,
// LCP, TBT and CLS — desktop preset, and the default mobile preset on / and /login/patient. The BUILT dists are served by scripts/web-server.mjs on
// test ports, with the BUILT api (PGlite) behind the dashboard.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { connect, signup } from './lib/http.mjs';
import { BENCH, freePort, HOST, onCleanup, ROOT, sleep, startApi, tempDir } from './lib/proc.mjs';
import { writeRuntimeConfig } from '../scripts/runtime-config.mjs';
import { startWebServer } from '../scripts/web-server.mjs';

// Issue 14 item 6: first paint on a phone.
export const LANDING_JS_TARGET_KB = 170;
/** the federated landing's JS before first paint over the same page built as one bundle, same run */
export const LANDING_JS_RATIO_TARGET = 1.1;
export const LIGHTHOUSE_TARGET = 98;
export const LIGHTHOUSE_MOBILE_TARGET = 95;
export const MOBILE_LCP_TARGET_MS = 2000;
export const MOBILE_TBT_TARGET_MS = 150;
/** the federated landing's JS until the network is idle over the single-bundle build's, same run */
export const LANDING_IDLE_RATIO_TARGET = 1.15;
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const APPS = ['shell', 'remote-public', 'remote-patient', 'remote-doctor'];

function assertBuilt() {
  const missing = APPS.filter((app) => !existsSync(join(ROOT, app, 'dist', 'index.html')));
  if (missing.length) throw new Error(`not built: ${missing.join(', ')} — run \`npm run build\` (or \`npm run bench\`) first`);
}

/** webpack CLI on bench/webpack.single.ts, bounded (3 minutes). */
async function buildSingle(outDir, log) {
  const t0 = Date.now();
  const child = spawn(join(ROOT, 'node_modules/.bin/webpack'), ['-c', join(BENCH, 'webpack.single.ts'), '--mode', 'production'], {
    cwd: ROOT,
    env: { ...process.env, SINGLE_OUT: outDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const remove = onCleanup(() => child.kill('SIGKILL'));
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  const code = await new Promise((r) => child.once('exit', r));
  clearTimeout(timer);
  remove();
  if (code !== 0) throw new Error(`single-bundle build failed (${code}):\n${output.slice(-3000)}`);
  log(`  single bundle built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

// ---- which libraries a chunk holds (for "what dominates") -----------------------------------
const MARKERS = [
  ['federation runtime', /RUNTIME-00\d|__FEDERATION__/],
  ['react-dom', /react-dom(-client)?\.production/],
  ['react', /\breact\.production\.js/],
  ['react/jsx-runtime', /react-jsx-runtime\.production/],
  ['react-router', /react-router v\d/],
  ['ky', /Sindre Sorhus/],
  ['styled-components', /data-styled/],
  ['@tanstack/react-query', /No QueryClient set/],
  ['zod', /ZodError|invalid_format/],
  ['CareLoop code', /CareLoop/],
];
function describeChunk(dir, file) {
  const path = join(dir, file);
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
    if (existsSync(`${path}.LICENSE.txt`)) text += readFileSync(`${path}.LICENSE.txt`, 'utf8');
  } catch {
    return '';
  }
  const found = MARKERS.filter(([, re]) => re.test(text)).map(([name]) => name);
  return found.length ? found.join(', ') : 'small federation/share glue or app module';
}

// ---- JS before the heading is visible, as Chromium downloads it -----------------------------
async function scriptBytes(browser, { url, heading, storage, dirs }) {
  const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
  try {
    if (storage) {
      await context.addInitScript((entries) => {
        for (const [k, v] of entries) localStorage.setItem(k, v);
      }, Object.entries(storage));
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    // Lighthouse's mobile network (slow 4G: 150 ms, 1.6 Mbps down): on loopback every script has
    // arrived before anything paints, whatever the page, so "before first paint" would mean nothing.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    const reqs = new Map();
    let headingAt = null;
    // A prerendered page (shell/dist/prerendered/) paints its heading before any script; the app takes over later.
    let appAt = null;
    cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
      const h = Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), v]));
      reqs.set(requestId, {
        url: response.url,
        type,
        status: response.status,
        encoding: h['content-encoding'] ?? 'identity',
        contentLength: h['content-length'] ? Number(h['content-length']) : null,
        raw: 0,
        finished: false,
      });
    });
    cdp.on('Network.dataReceived', ({ requestId, dataLength }) => {
      const r = reqs.get(requestId);
      if (r) r.raw += dataLength;
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const r = reqs.get(requestId);
      if (!r) return;
      r.finished = true;
      r.transfer = encodedDataLength;
      r.beforeHeading = headingAt === null;
      r.beforeApp = appAt === null;
    });
    const t0 = Date.now();
    await page.goto(url, { waitUntil: 'commit', timeout: 30_000 });
    await page.getByRole('heading', { level: 1, name: heading }).waitFor({ state: 'visible', timeout: 30_000 });
    headingAt = Date.now() - t0;
    await page.waitForFunction(() => !document.getElementById('prerendered'), null, { timeout: 30_000 });
    appAt = Date.now() - t0;
    // Whatever arrives later (lazy chunks, prefetches) is listed separately.
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await sleep(300);
    const all = [...reqs.values()].filter((r) => r.finished);
    const scripts = all
      .filter((r) => r.type === 'Script')
      .map((r) => {
        const u = new URL(r.url);
        const file = basename(u.pathname);
        const dir = dirs[u.port];
        return {
          url: r.url,
          status: r.status,
          file,
          origin: u.port === String(new URL(url).port) ? 'page' : u.host,
          // compressed bytes as served (Brotli when Chromium asks for it, else gzip)
          gzip: r.encoding === 'gzip' || r.encoding === 'br' ? (r.contentLength ?? r.transfer) : null,
          encoding: r.encoding,
          transfer: r.transfer,
          raw: r.raw,
          beforeHeading: r.beforeHeading,
          beforeApp: r.beforeApp,
          contains: dir ? describeChunk(dir, file) : '',
        };
      })
      .sort((a, b) => (b.gzip ?? 0) - (a.gzip ?? 0));
    const before = scripts.filter((s) => s.beforeHeading);
    const sum = (list, k) => list.reduce((n, s) => n + (s[k] ?? 0), 0);
    const plain = before.filter((s) => s.gzip === null);
    if (plain.length) {
      throw new Error(
        `not served compressed on ${url}: ${plain.map((s) => `${s.file} (${s.encoding}, ${s.status})`).join(', ')}`,
      );
    }
    const beforeApp = scripts.filter((s) => s.beforeApp);
    return {
      /** every script downloaded until the network was idle (prefetches included) */
      idle: { scripts: scripts.length, gzipBytes: sum(scripts, 'gzip') },
      url,
      headingMs: headingAt,
      appMs: appAt,
      /** the JS the page needs to be the app (for a page that is not prerendered: the same as before the heading) */
      app: { scripts: beforeApp.length, gzipBytes: sum(beforeApp, 'gzip') },
      scripts: before.length,
      gzipBytes: sum(before, 'gzip'),
      transferBytes: sum(before, 'transfer'),
      rawBytes: sum(before, 'raw'),
      afterHeading: {
        scripts: scripts.length - before.length,
        gzipBytes: sum(
          scripts.filter((s) => !s.beforeHeading),
          'gzip',
        ),
      },
      allRequests: all.length,
      allTransferBytes: sum(all, 'transfer'),
      files: scripts,
    };
  } finally {
    await context.close();
  }
}

// ---- Lighthouse -----------------------------------------------------------------------------
async function lighthouseOnce({ url, storage, storageOrigin, mobile = false }) {
  const { default: lighthouse, desktopConfig } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: CHROME_FLAGS,
    userDataDir: tempDir('lh-profile'),
    logLevel: 'silent',
  });
  const remove = onCleanup(() => chrome.kill());
  try {
    let disableStorageReset = false;
    if (storage) {
      // Put the session in localStorage from a page of the shell's origin that runs no script
      // (runtime-config.json), so no JS is cached; then Lighthouse must not reset storage.
      const { default: puppeteer } = await import('puppeteer-core');
      const browser = await puppeteer.connect({ browserURL: `http://${HOST}:${chrome.port}` });
      const page = await browser.newPage();
      await page.goto(`${storageOrigin}/runtime-config.json`);
      await page.evaluate((entries) => {
        for (const [k, v] of entries) localStorage.setItem(k, v);
      }, Object.entries(storage));
      const session = await page.createCDPSession();
      await session.send('Network.clearBrowserCache');
      await page.close();
      await browser.disconnect();
      disableStorageReset = true;
    }
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset },
      // no config = Lighthouse's default: a mid-range phone on slow 4G, simulated throttling
      mobile ? undefined : desktopConfig,
    );
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const num = (id) => lhr.audits[id]?.numericValue ?? null;
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      // Lighthouse's measure of this host's CPU (higher is faster; ~1,000+ a desktop), beside each figure
      benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
      fcp: num('first-contentful-paint'),
      lcp: num('largest-contentful-paint'),
      tbt: num('total-blocking-time'),
      // the LCP the trace saw, unthrottled: simulated LCP also counts every download started before it
      observedLcp: lhr.audits.metrics?.details?.items?.[0]?.observedLargestContentfulPaint ?? null,
      cls: num('cumulative-layout-shift'),
      si: num('speed-index'),
      finalUrl: lhr.finalDisplayedUrl,
      // what shifted (CLS) and what the LCP element was, to say what would move the score
      layoutShifts: (lhr.audits['layout-shifts']?.details?.items ?? []).slice(0, 3).map((i) => ({
        element: i.node?.nodeLabel ?? i.node?.snippet ?? '?',
        selector: i.node?.selector,
        score: i.score,
      })),
      lcpElement: findNodeLabel(lhr.audits['largest-contentful-paint-element']?.details),
      // what blocks the main thread (TBT): the longest tasks and the scripts that cost most to run
      longTasks: (lhr.audits['long-tasks']?.details?.items ?? []).slice(0, 5).map((t) => ({
        url: t.url,
        startTime: Math.round(t.startTime),
        duration: Math.round(t.duration),
      })),
      bootup: (lhr.audits['bootup-time']?.details?.items ?? []).slice(0, 5).map((b) => ({
        url: b.url,
        scripting: Math.round(b.scripting),
        parse: Math.round(b.scriptParseCompile),
      })),
      warnings: lhr.runWarnings ?? [],
    };
  } finally {
    remove();
    await chrome.kill();
  }
}

function findNodeLabel(details) {
  // items[0].items[0].node in Lighthouse 12 (a list of tables); be lenient about the shape
  const stack = [details];
  for (let i = 0; i < 200 && stack.length; i++) {
    const x = stack.pop();
    if (!x || typeof x !== 'object') continue;
    if (x.type === 'node') return x.nodeLabel ?? x.snippet ?? null;
    if (x.node?.type === 'node') return x.node.nodeLabel ?? x.node.snippet ?? null;
    stack.push(...(Array.isArray(x) ? x : Object.values(x)));
  }
  return null;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function lighthouseMedian(opts, runs) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await lighthouseOnce(opts));
  // the run with the median score, so the metrics belong together
  const sorted = [...all].sort((a, b) => a.score - b.score);
  const mid = sorted[Math.floor((sorted.length - 1) / 2)];
  return { ...mid, runs: all.length, scores: all.map((r) => r.score), medianScore: median(all.map((r) => r.score)) };
}

// ---- the section ----------------------------------------------------------------------------
export async function runWeb({ quick, log }) {
  const started = Date.now();
  assertBuilt();
  const work = tempDir('web');
  const singleDir = join(BENCH, 'results', 'single-dist');
  await buildSingle(singleDir, log);

  const ports = {
    shell: await freePort(8710),
    public: await freePort(8720),
    patient: await freePort(8730),
    doctor: await freePort(8740),
    single: await freePort(8750),
    api: await freePort(4714),
  };
  const origin = (p) => `http://${HOST}:${p}`;
  const runtimeConfigFile = join(work, 'runtime-config.json');
  // what `npm start` writes (scripts/runtime-config.mjs): the remotes' manifests, the idle logoff
  writeRuntimeConfig(runtimeConfigFile, {
    apiUrl: origin(ports.api),
    remotes: { public: origin(ports.public), patient: origin(ports.patient), doctor: origin(ports.doctor) },
  });
  const webOrigins = [ports.shell, ports.public, ports.patient, ports.doctor, ports.single].map(origin);
  const api = await startApi({ port: ports.api, dataDir: tempDir('web-api'), databaseUrl: undefined, webOrigins });
  const servers = [];
  const remove = onCleanup(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));
  const { chromium } = await import('playwright-core');
  let browser;
  try {
    const dirs = {
      [ports.shell]: join(ROOT, 'shell/dist'),
      [ports.public]: join(ROOT, 'remote-public/dist'),
      [ports.patient]: join(ROOT, 'remote-patient/dist'),
      [ports.doctor]: join(ROOT, 'remote-doctor/dist'),
      [ports.single]: singleDir,
    };
    for (const [port, dir] of Object.entries(dirs)) {
      servers.push(await startWebServer({ dir, port: Number(port), host: HOST, runtimeConfigFile }));
    }
    const patient = await signup(
      api.url,
      'patient',
      `web-patient-${Date.now().toString(36)}@bench.example`,
      'Web Bench Patient',
      {
        DOB: '1985-04-12',
        occupation: 'Engineer',
      },
    );
    const storage = { token: patient.token, role: 'patient' };
    // a doctor with two-factor on (bench/lib/http.mjs), connected to the patient: a dashboard with a patient on it
    const doctor = await signup(api.url, 'doctor', `web-doctor-${Date.now().toString(36)}@bench.example`, 'Dr Web Bench');
    await connect(api.url, doctor, patient);
    const doctorStorage = { token: doctor.token, role: 'doctor' };

    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS, headless: true });
    const closeBrowser = onCleanup(() => browser.close());
    const landing = 'Empower Healthcare Decisions';
    log('  measuring JS before first paint (Chromium, cache disabled)');
    const js = {
      landing: await scriptBytes(browser, { url: `${origin(ports.shell)}/`, heading: landing, dirs }),
      single: await scriptBytes(browser, { url: `${origin(ports.single)}/`, heading: landing, dirs }),
      dashboard: await scriptBytes(browser, {
        url: `${origin(ports.shell)}/patient/dashboard`,
        heading: 'Patient dashboard',
        storage,
        dirs,
      }),
    };
    for (const [k, v] of Object.entries(js)) {
      log(
        `  ${k}: ${v.scripts} scripts, ${(v.gzipBytes / 1024).toFixed(1)} KB gzipped (${(v.rawBytes / 1024).toFixed(0)} KB raw) before the heading, ${v.headingMs} ms; ` +
          `${(v.app.gzipBytes / 1024).toFixed(1)} KB before the app took over, ${v.appMs} ms`,
      );
    }
    closeBrowser();
    await browser.close();
    browser = undefined;

    const runs = quick ? 1 : 3;
    log(`  Lighthouse (desktop preset, ${runs} run(s) each, median score)`);
    const lh = {
      landing: await lighthouseMedian({ url: `${origin(ports.shell)}/` }, runs),
      single: await lighthouseMedian({ url: `${origin(ports.single)}/` }, runs),
      dashboard: await lighthouseMedian(
        { url: `${origin(ports.shell)}/patient/dashboard`, storage, storageOrigin: origin(ports.shell) },
        runs,
      ),
    };
    for (const [k, v] of Object.entries(lh)) {
      log(
        `  ${k}: score ${v.medianScore} (${v.scores.join(', ')}), LCP ${v.lcp?.toFixed(0)} ms, TBT ${v.tbt?.toFixed(0)} ms, CLS ${v.cls?.toFixed(3)} → ${v.finalUrl}`,
      );
    }
    if (!lh.dashboard.finalUrl.includes('/patient/dashboard')) {
      throw new Error(`Lighthouse's dashboard run ended on ${lh.dashboard.finalUrl}: the session did not carry over`);
    }
    log(`  Lighthouse (mobile preset, ${runs} run(s) each, median score)`);
    const signedIn = (path, as) => ({
      url: `${origin(ports.shell)}${path}`,
      storage: as,
      storageOrigin: origin(ports.shell),
      mobile: true,
    });
    const mobile = {
      landing: await lighthouseMedian({ url: `${origin(ports.shell)}/`, mobile: true }, runs),
      login: await lighthouseMedian({ url: `${origin(ports.shell)}/login/patient`, mobile: true }, runs),
      patientDashboard: await lighthouseMedian(signedIn('/patient/dashboard', storage), runs),
      doctorDashboard: await lighthouseMedian(signedIn('/doctor/dashboard', doctorStorage), runs),
      single: await lighthouseMedian({ url: `${origin(ports.single)}/`, mobile: true }, runs),
    };
    for (const [k, path] of [
      ['patientDashboard', '/patient/dashboard'],
      ['doctorDashboard', '/doctor/dashboard'],
    ]) {
      if (!mobile[k].finalUrl.includes(path))
        throw new Error(`Lighthouse's ${path} run ended on ${mobile[k].finalUrl}: the session did not carry over`);
    }
    for (const [k, v] of Object.entries(mobile)) {
      log(
        `  mobile ${k}: score ${v.medianScore} (${v.scores.join(', ')}), LCP ${v.lcp?.toFixed(0)} ms, TBT ${v.tbt?.toFixed(0)} ms, CLS ${v.cls?.toFixed(3)}, benchmark index ${v.benchmarkIndex} → ${v.finalUrl}`,
      );
    }
    return {
      js,
      lighthouse: lh,
      lighthouseMobile: mobile,
      preset: 'desktop',
      lighthouseRuns: runs,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await browser?.close().catch(() => undefined);
    remove();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await api.stop();
  }
}
