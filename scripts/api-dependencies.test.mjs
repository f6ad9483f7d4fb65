// The api runs where only its package's `dependencies` are installed (npm ci --omit=dev, a slim
// image): every package its product code loads at run time must be one of them. Type-only imports
// are erased by tsc and may name a devDependency (type packages).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..');
const api = join(root, 'api');
const pkg = JSON.parse(readFileSync(join(api, 'package.json'), 'utf8'));

/** The api's product sources: not tests, not their fixtures. */
function productFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return ['test', 'quality'].includes(e.name) && dir === join(api, 'src') ? [] : productFiles(path);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [path] : [];
  });
}

/** The packages a file loads at run time: value imports and re-exports, import(), require(). */
function runtimePackages(source) {
  const specifiers = [
    ...source.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g),
    ...source.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]);
  return [
    ...new Set(
      specifiers
        .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s.split('/')[0]))
        .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0])),
    ),
  ];
}

test('runtimePackages: value imports count, type-only imports do not', () => {
  const source = [
    "import { a } from 'pkg-a';",
    "import type { B } from 'pkg-b';",
    'import {\n  c,\n  d,\n} from "@scope/pkg-c/sub";',
    "export { e } from 'pkg-e';",
    "export type { F } from 'pkg-f';",
    "const g = await import('pkg-g');",
    "import 'pkg-h';",
    "import { readFile } from 'node:fs';",
    "import { join } from 'path';",
    "import { x } from './local';",
  ].join('\n');
  assert.deepEqual(runtimePackages(source).sort(), ['@scope/pkg-c', 'pkg-a', 'pkg-e', 'pkg-g', 'pkg-h']);
});

test("every package the api's product code loads is one of its dependencies", () => {
  const allowed = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]);
  const missing = productFiles(join(api, 'src')).flatMap((file) =>
    runtimePackages(readFileSync(file, 'utf8'))
      .filter((name) => !allowed.has(name))
      .map((name) => `${relative(root, file)}: ${name}`),
  );
  assert.deepEqual(missing, []);
});
