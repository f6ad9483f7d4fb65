// Builds everything: the shared contract and the api (tsc), then the four web apps (webpack, one process).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

run(bin('tsc'), ['-b', 'tsconfig.json']);
run(bin('webpack'), [
  '--mode',
  'production',
  ...['shell', 'remote-public', 'remote-patient', 'remote-doctor'].flatMap((app) => ['-c', `${app}/webpack.config.ts`]),
]);
