// The unit-test runner runs again only the suites whose Jest worker died of a signal, once; real
// Jest runs on throwaway suites: one that crashes its worker the first time, one that fails a test.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { phase, suitesLostToCrash } from './unit-tests.mjs';

/** A folder with a Jest config and these test files; `runs` counts how often each file was run. */
function project(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-unit-tests-'));
  fs.writeFileSync(path.join(dir, 'jest.config.js'), 'module.exports = { testMatch: ["**/*.test.js"] };\n');
  for (const [name, body] of Object.entries(files)) {
    fs.writeFileSync(
      path.join(dir, name),
      `const fs = require('fs');\nfs.appendFileSync(${JSON.stringify(path.join(dir, name + '.runs'))}, 'x');\n` +
        `const runs = fs.readFileSync(${JSON.stringify(path.join(dir, name + '.runs'))}, 'utf8').length;\n${body}\n`,
    );
  }
  const runs = (name) => fs.readFileSync(path.join(dir, name + '.runs'), 'utf8').length;
  return { dir, runs, done: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const CRASHES_ONCE = `test('survives', () => { if (runs === 1) process.kill(process.pid, 'SIGSEGV'); expect(runs).toBe(2); });`;
const PASSES = `test('passes', () => expect(1).toBe(1));`;
const SKIPPED = `describe.skip('not here', () => test('skipped', () => {}));`;
const FAILS = `test('fails', () => expect(1).toBe(2));`;
/** Jest's output dropped; the runner's notices kept, to be read. */
function quiet() {
  const said = [];
  return { stdio: 'ignore', say: (text) => said.push(text), said };
}

test('a suite whose worker died of SIGSEGV is run once more, and the run passes', async () => {
  const p = project({ 'crash.test.js': CRASHES_ONCE, 'ok.test.js': PASSES, 'skipped.test.js': SKIPPED });
  try {
    const options = { ...quiet(), cwd: p.dir };
    assert.equal(await phase(['--maxWorkers=2'], options), 0);
    assert.equal(p.runs('crash.test.js'), 2);
    assert.equal(p.runs('ok.test.js'), 1);
    assert.match(options.said.join(''), /1 suite\(s\) lost their Jest worker to a signal[^]*crash\.test\.js/);
  } finally {
    p.done();
  }
});

test('a failed test is never run again, even beside a crash', async () => {
  const p = project({ 'crash.test.js': CRASHES_ONCE, 'fail.test.js': FAILS });
  try {
    const options = { ...quiet(), cwd: p.dir };
    assert.notEqual(await phase(['--maxWorkers=2'], options), 0);
    assert.deepEqual(options.said, []);
    assert.equal(p.runs('crash.test.js'), 1);
    assert.equal(p.runs('fail.test.js'), 1);
  } finally {
    p.done();
  }
});

test('a suite that crashes every time fails the run', async () => {
  const p = project({ 'crash.test.js': `test('dies', () => process.kill(process.pid, 'SIGSEGV'));`, 'ok.test.js': PASSES });
  try {
    assert.notEqual(await phase(['--maxWorkers=2'], { ...quiet(), cwd: p.dir }), 0);
    assert.equal(p.runs('crash.test.js'), 2);
  } finally {
    p.done();
  }
});

test('only a worker killed by a signal counts as lost, not a suite that failed to load', () => {
  const suite = (message, assertionResults = []) => ({ name: '/x.test.js', status: 'failed', message, assertionResults });
  const killed = 'A jest worker process (pid=11088) was terminated by another process: signal=SIGSEGV, exitCode=null.';
  assert.deepEqual(suitesLostToCrash({ testResults: [suite(killed)] }), ['/x.test.js']);
  assert.equal(suitesLostToCrash({ testResults: [suite('SyntaxError: Unexpected token')] }), null);
  assert.equal(suitesLostToCrash({ testResults: [suite(killed, [{ status: 'failed' }])] }), null);
  assert.equal(
    suitesLostToCrash({ testResults: [{ name: '/y.test.js', status: 'passed', message: '', assertionResults: [] }] }),
    null,
  );
  // A suite whose every test is skipped is no failure.
  const skipped = { name: '/z.test.js', status: 'skipped', message: '', assertionResults: [{ status: 'pending' }] };
  assert.deepEqual(suitesLostToCrash({ testResults: [suite(killed), skipped] }), ['/x.test.js']);
});
