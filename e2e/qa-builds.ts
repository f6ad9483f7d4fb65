// The remote builds some browser tests serve beside the usual `npm run build` output: each built once
// per run, in the background from global setup, while the tests that do not need them run.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './stack';

/** Where a QA build of remote-patient's routes changes them (e2e/tests/remote-routes.spec.ts, releases.spec.ts). */
export const QA_ROUTE_ENV = { CARELOOP_QA_ROUTE: '1', CARELOOP_QA_DROP_ROUTE: '/patient/sessions' };

/** `#0b6e69` in shared-ui's theme.ts. */
export const PRIMARY = /primary: '(#[0-9a-f]{6})'/;
export const MAGENTA = '#b4005a';

const sharedUiVersion = (): string => JSON.parse(readFileSync(join(ROOT, 'shared-ui', 'package.json'), 'utf8')).version;

/** A shared-ui release as a team would ship it with its remote alone: one file patched, its version bumped. */
interface SharedUiRelease {
  version: () => string;
  file: string;
  patch: (source: string) => string;
}

interface QaBuild {
  app: 'remote-patient' | 'remote-doctor';
  env?: Record<string, string>;
  sharedUi?: SharedUiRelease;
}

/**
 * Each a production build of one remote's entry (what the shell loads; not its standalone QA host),
 * in the order the tests (alphabetical by file) first need them.
 */
export const QA_BUILDS = {
  /** One route more (QA probe, with a sidebar entry) and one fewer (signed-in devices). */
  'qa-route': { app: 'remote-patient', env: QA_ROUTE_ENV },
  /** A changed text, in a major shared-ui release the page's own shared-ui does not satisfy. */
  'patient-shared-ui-major': {
    app: 'remote-patient',
    sharedUi: {
      version: () => '1.99.0',
      file: 'account.tsx',
      patch: (source) => source.replace('<Heading>Create your ', '<Heading>Open your new '),
    },
  },
  /** A changed theme colour, in a minor shared-ui release within every other app's ^range. */
  'doctor-shared-ui-minor': {
    app: 'remote-doctor',
    sharedUi: {
      version: () => {
        const [major, minor] = sharedUiVersion().split('.').map(Number);
        return `${major}.${minor + 1}.0`;
      },
      file: 'theme.ts',
      patch: (source) => source.replace(PRIMARY, `primary: '${MAGENTA}'`),
    },
  },
} satisfies Record<string, QaBuild>;
export type QaBuildName = keyof typeof QA_BUILDS;

const buildsDir = (): string => {
  const dir = process.env.CARELOOP_E2E_BUILDS_DIR;
  if (!dir) throw new Error('CARELOOP_E2E_BUILDS_DIR is unset (global-setup sets it)');
  return dir;
};

/** The shared-ui version a build carries (its own, unless it ships a shared-ui release). */
export const sharedUiVersionOf = (name: QaBuildName): string => {
  const build: QaBuild = QA_BUILDS[name];
  return build.sharedUi?.version() ?? sharedUiVersion();
};

async function buildOne(name: QaBuildName, dir: string, track: (child: ChildProcess) => void): Promise<void> {
  const build: QaBuild = QA_BUILDS[name];
  const work = join(dir, `${name}.work`);
  const env: Record<string, string> = { ...build.env };
  if (build.sharedUi) {
    const sharedUi = join(work, 'shared-ui');
    cpSync(join(ROOT, 'shared-ui', 'src'), join(sharedUi, 'src'), { recursive: true });
    const pkg = JSON.parse(readFileSync(join(ROOT, 'shared-ui', 'package.json'), 'utf8'));
    writeFileSync(join(sharedUi, 'package.json'), JSON.stringify({ ...pkg, version: build.sharedUi.version() }));
    const patched = join(sharedUi, 'src', build.sharedUi.file);
    const source = readFileSync(patched, 'utf8');
    const changed = build.sharedUi.patch(source);
    if (changed === source) throw new Error(`${name}: the patch changed nothing in shared-ui/src/${build.sharedUi.file}`);
    writeFileSync(patched, changed);
    env.CARELOOP_SHARED_UI_DIR = sharedUi;
  }
  const out = join(work, 'dist');
  const entryConfig = `${build.app.replace('-', '_')}-entry`;
  // Niced: it shares the machine with the browser tests running meanwhile, and must not slow them.
  const child = spawn(
    'nice',
    [
      '-n',
      '19',
      join(ROOT, 'node_modules', '.bin', 'webpack'),
      '--mode',
      'production',
      '--config-name',
      entryConfig,
      '--output-path',
      out,
    ],
    { cwd: join(ROOT, build.app), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  track(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  if (code !== 0) throw new Error(`webpack exited with ${code}:\n${output}`);
  renameSync(out, join(dir, name));
}

/**
 * Global setup: builds every QA build one after the other in the background; each, once done, is
 * `<CARELOOP_E2E_BUILDS_DIR>/<name>` (or `<name>.failed` holds why not). Returns a stop function for
 * global teardown.
 */
export function startQaBuilds(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  process.env.CARELOOP_E2E_BUILDS_DIR = dir;
  let current: ChildProcess | undefined;
  let stopped = false;
  void (async () => {
    for (const name of Object.keys(QA_BUILDS) as QaBuildName[]) {
      if (stopped) return;
      try {
        await buildOne(name, dir, (child) => (current = child));
      } catch (err) {
        // Not when global teardown stopped it: that is no failure.
        if (!stopped) writeFileSync(join(dir, `${name}.failed`), String((err as Error).stack ?? err));
      }
    }
  })();
  return () => {
    stopped = true;
    if (current && current.exitCode === null) current.kill('SIGTERM');
  };
}

/** A test's QA build: its dist folder, once global setup's background build has made it. */
export async function qaBuild(name: QaBuildName, timeoutMs = 360_000): Promise<string> {
  const out = join(buildsDir(), name);
  const failed = `${out}.failed`;
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(out)) return out;
    if (existsSync(failed)) throw new Error(`QA build ${name} failed: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > until) throw new Error(`QA build ${name} not done within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
