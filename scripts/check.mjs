// `npm test` (scripts/check.mjs): every check, in order, each stage timed; stops at the first that fails.
import { spawnSync } from 'node:child_process';

const STAGES = [
  ['build', 'npm', ['run', 'build']],
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint (ESLint)', 'npm', ['run', 'lint']],
  ['format (Prettier)', 'npm', ['run', 'format:check']],
  ['dependency rules', 'npm', ['run', 'lint:deps']],
  ['shared package versions bumped', 'npm', ['run', 'check:versions']],
  ['OpenAPI lint (Redocly)', 'npm', ['run', 'lint:openapi']],
  ['script tests (web server, lint rules)', 'npm', ['run', 'test:scripts']],
  ['unit and api tests', 'npm', ['run', 'test:unit']],
  ['browser tests', 'npm', ['run', 'test:e2e']],
];

const took = [];
for (const [name, cmd, args] of STAGES) {
  const start = Date.now();
  console.log(`\n::: ${name}`);
  const { status, signal } = spawnSync(cmd, args, { stdio: 'inherit' });
  const seconds = Math.round((Date.now() - start) / 1000);
  took.push(`${name} ${seconds} s`);
  console.log(`::: ${name} took ${seconds} s`);
  if (status !== 0) {
    console.error(`::: ${name} failed (${signal ?? `exit ${status}`}); stages: ${took.join(', ')}`);
    process.exit(status || 1);
  }
}
console.log(`\n::: all stages passed: ${took.join(', ')}`);
