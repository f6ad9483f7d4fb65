// `node --test scripts/`: the lint rules the house relies on are really on (eslint.config.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root });
const rulesHit = async (code, filePath) =>
  (await eslint.lintText(code, { filePath: join(root, filePath) }))[0].messages.map((m) => m.ruleId);

test('HTML from data is refused in a view', async () => {
  const code = 'export const V = ({ html }: { html: string }) => <div dangerouslySetInnerHTML={{ __html: html }} />;\n';
  assert.deepEqual(await rulesHit(code, 'shared-ui/src/Lint.tsx'), ['no-restricted-syntax']);
});

test('a React context in shared-ui is refused: each app has its own copy of it', async () => {
  const code = "import { createContext } from 'react';\nexport const C = createContext(null);\n";
  assert.deepEqual(await rulesHit(code, 'shared-ui/src/Lint.tsx'), ['no-restricted-syntax']);
  assert.deepEqual(await rulesHit(code, 'shared-auth/src/Lint.tsx'), []);
});

test('hooks: called conditionally, or with a missing dependency', async () => {
  const code = [
    "import { useEffect, useState } from 'react';",
    'export function V({ on, id }: { on: boolean; id: string }) {',
    '  if (on) useState(0);',
    '  useEffect(() => console.log(id), []);',
    '  return null;',
    '}',
    '',
  ].join('\n');
  assert.deepEqual(await rulesHit(code, 'shell/src/Lint.tsx'), ['react-hooks/rules-of-hooks', 'react-hooks/exhaustive-deps']);
});

test('an unused import is an error; a clean file passes', async () => {
  assert.deepEqual(await rulesHit("import { z } from 'zod';\nexport const a = 1;\n", 'api/src/lint.ts'), [
    '@typescript-eslint/no-unused-vars',
  ]);
  assert.deepEqual(await rulesHit("import { z } from 'zod';\nexport const a = z.string();\n", 'api/src/lint.ts'), []);
});

test('build outputs and data are not linted', async () => {
  for (const file of ['shell/dist/main.js', 'data/x.js', 'api/drizzle/x.js']) {
    assert.equal(await eslint.isPathIgnored(join(root, file)), true, file);
  }
});
