// The front door stays a front door: README ≤ 12 KB with the two commands of a fresh machine at its
// top, each reference page under docs/ ≤ 20 KB, and every relative link in them leads to a file.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const docs = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => join('docs', f));

test('the README is at most 12 KB and opens with the two commands of a fresh machine', () => {
  assert.ok(statSync(join(root, 'README.md')).size <= 12 * 1024);
  const top = readFileSync(join(root, 'README.md'), 'utf8').split('\n').slice(0, 8).join('\n');
  assert.match(top, /npm ci && npm start/);
  assert.match(top, /npm ci && npm test/);
});

test('each page under docs/ is at most 20 KB', () => {
  for (const page of docs) assert.ok(statSync(join(root, page)).size <= 20 * 1024, `${page} is over 20 KB`);
});

test('every relative link of the README and docs/ leads to a file of the repository', () => {
  for (const page of ['README.md', ...docs]) {
    const text = readFileSync(join(root, page), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // http(s), mailto: outside the repository
      assert.ok(existsSync(resolve(root, dirname(page), target)), `${page} links to ${target}, which does not exist`);
    }
  }
});
