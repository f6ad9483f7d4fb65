// `npm run test:unit`: every Jest suite, then the fault suites one at a time (they start processes and
// wait on real time, docs/testing.md).
//
// A suite whose Jest worker process was killed by a signal is run once more, alone. V8's WebAssembly
// runtime, which runs PGlite, can crash a Node 22+ process (SIGSEGV, nodejs/node#64500; SIGTRAP on a
// failed V8 check) while PGlite starts or stops; that says nothing about the suite. What is not
// run again: a suite that failed a test or failed to load, and a suite that crashes a second time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const JEST = createRequire(import.meta.url).resolve('jest/bin/jest');
const FAULTS = 'src/quality/faults\\.';
const PHASES = [
  ['--testPathIgnorePatterns', '/node_modules/', FAULTS],
  ['--selectProjects', 'api', '--runInBand', FAULTS],
];

/** The text Jest gives a suite whose worker process died of a signal (jest-worker's ChildProcessWorker). */
const KILLED_WORKER = /jest worker process \(pid=\d+\) was terminated by another process: signal=SIG[A-Z]+/;

/**
 * The suites of a Jest JSON report that only lost their worker to a signal, or null when anything
 * else failed (a test, a suite that would not load, a run error): then nothing is run again.
 */
export function suitesLostToCrash(report) {
  // Jest's statuses: passed, failed, skipped (every test in it skipped), pending.
  const failed = report.testResults.filter((suite) => suite.status === 'failed');
  if (failed.length === 0) return null;
  const crashed = failed.filter(
    (suite) => KILLED_WORKER.test(suite.message) && suite.assertionResults.every((test) => test.status !== 'failed'),
  );
  return crashed.length === failed.length ? crashed.map((suite) => suite.name) : null;
}

/** A Jest path pattern that matches exactly this file. */
const exactly = (file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

function jest(args, { cwd, stdio = 'inherit' } = {}) {
  const outputFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-jest-')), 'report.json');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [JEST, ...args, '--json', `--outputFile=${outputFile}`], {
      cwd,
      stdio,
    });
    child.on('close', (status) => {
      let report = null;
      try {
        report = JSON.parse(fs.readFileSync(outputFile, 'utf8'));
      } catch {
        // no report: Jest itself failed before running suites; its status says so
      }
      fs.rmSync(path.dirname(outputFile), { recursive: true, force: true });
      resolve({ status, report });
    });
  });
}

/**
 * One Jest run, and the suites it lost to a crash once more; resolves to the exit status.
 * `options`: Jest's `cwd` and `stdio`, and `say` for the notice of a second run (default: stdout).
 */
export async function phase(args, options = {}) {
  const { status, report } = await jest(args, options);
  if (status === 0) return 0;
  const lost = report && suitesLostToCrash(report);
  if (!lost) return status || 1;
  (options.say ?? console.log)(
    `\n::: ${lost.length} suite(s) lost their Jest worker to a signal, not to a failed test; running them once more, alone:\n` +
      lost.map((file) => `    ${path.relative(options.cwd ?? process.cwd(), file)}`).join('\n'),
  );
  const again = await jest(['--runInBand', ...lost.map(exactly)], options);
  return again.status === 0 ? 0 : again.status || 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const args of PHASES) {
    const status = await phase(args);
    if (status !== 0) process.exit(status);
  }
}
