// `npm test` (scripts/check.mjs): every check, each stage timed; stops after the first step that fails.
// A step is one stage, or a group of single-threaded stages run side by side (as many at once as the
// machine has cores), each one's output held and printed whole when it ends.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const STEPS = [
  ['build', 'npm', ['run', 'build']],
  [
    ['typecheck', 'npm', ['run', 'typecheck']],
    ['format (Prettier)', 'npm', ['run', 'format:check']],
    ['lint (ESLint)', 'npm', ['run', 'lint']],
    ['dependency rules', 'npm', ['run', 'lint:deps']],
    ['OpenAPI lint (Redocly)', 'npm', ['run', 'lint:openapi']],
    ['script tests (web server, lint rules)', 'npm', ['run', 'test:scripts']],
    ['shared package versions bumped', 'npm', ['run', 'check:versions']],
  ],
  ['unit and api tests', 'npm', ['run', 'test:unit']],
  // Skipped (with the reason printed) without root, `ip` or nginx, unless CI=true (.ci/run).
  ['topology (nginx, three replicas)', 'npm', ['run', 'test:ops']],
  ['browser tests', 'npm', ['run', 'test:e2e']],
];

const took = [];
const seconds = (start) => Math.round((Date.now() - start) / 1000);

/** Runs one stage; `held`: its output is collected and printed when it ends (a stage of a group). */
function runStage([name, cmd, args], { held = false } = {}) {
  return new Promise((resolve) => {
    const start = Date.now();
    if (!held) console.log(`\n::: ${name}`);
    const child = spawn(cmd, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    if (held) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk));
    child.on('close', (status, signal) => {
      const s = seconds(start);
      if (held) process.stdout.write(`\n::: ${name}\n${Buffer.concat(output).toString()}`);
      console.log(`::: ${name} took ${s} s`);
      took.push(`${name} ${s} s`);
      resolve({ name, failed: status !== 0, outcome: signal ?? `exit ${status}` });
    });
  });
}

/** Runs a group's stages, `width` at a time; resolves to every outcome in the group's order. */
async function runGroup(stages, width) {
  const outcomes = new Array(stages.length);
  let next = 0;
  const lane = async () => {
    while (next < stages.length) {
      const i = next++;
      outcomes[i] = await runStage(stages[i], { held: true });
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, stages.length) }, lane));
  return outcomes;
}

for (const step of STEPS) {
  const group = Array.isArray(step[0]);
  const start = Date.now();
  const outcomes = group ? await runGroup(step, availableParallelism()) : [await runStage(step)];
  if (group) console.log(`::: the ${step.length} checks above took ${seconds(start)} s side by side`);
  const failed = outcomes.filter((o) => o.failed);
  if (failed.length) {
    console.error(`::: failed: ${failed.map((o) => `${o.name} (${o.outcome})`).join(', ')}; stages: ${took.join(', ')}`);
    process.exit(1);
  }
}
console.log(`\n::: all stages passed: ${took.join(', ')}`);
