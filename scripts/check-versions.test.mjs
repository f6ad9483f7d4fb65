// `node --test scripts/`: the version-bump check on a throwaway git repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unbumped } from './check-versions.mjs';

function repo() {
  const dir = mkdtempSync(join(tmpdir(), 'careloop-versions-'));
  const git = (...args) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir });
  git('init', '-q');
  mkdirSync(join(dir, 'shared-ui', 'src'), { recursive: true });
  writeFileSync(join(dir, 'shared-ui', 'package.json'), JSON.stringify({ name: 'shared-ui', version: '1.1.0' }));
  writeFileSync(join(dir, 'shared-ui', 'src', 'index.ts'), 'export const text = "a";\n');
  git('add', '-A');
  git('commit', '-qm', 'release');
  return { dir, base: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim() };
}

test('an unchanged package passes', () => {
  const { dir, base } = repo();
  assert.deepEqual(unbumped(dir, base, ['shared-ui']), []);
});

test('a changed package without a version bump fails', () => {
  const { dir, base } = repo();
  writeFileSync(join(dir, 'shared-ui', 'src', 'index.ts'), 'export const text = "b";\n');
  const problems = unbumped(dir, base, ['shared-ui']);
  assert.equal(problems.length, 1);
  assert.match(problems[0], /shared-ui changed since .* but is still 1\.1\.0/);
});

test('a new file counts as a change; a bump passes', () => {
  const { dir, base } = repo();
  writeFileSync(join(dir, 'shared-ui', 'src', 'more.ts'), 'export {};\n');
  assert.equal(unbumped(dir, base, ['shared-ui']).length, 1);
  writeFileSync(join(dir, 'shared-ui', 'package.json'), JSON.stringify({ name: 'shared-ui', version: '1.2.0' }));
  assert.deepEqual(unbumped(dir, base, ['shared-ui']), []);
});
