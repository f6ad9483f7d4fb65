// Builds everything: the shared contract and the api (tsc), then the four web apps (webpack, one process).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerender } from './prerender.mjs';
import { readRuntimeConfig, writeStaticHeaders } from './security-headers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

// From scratch: tsc never deletes the output of a source file that was moved or removed, and a
// stale api/dist/adapters/storage.js would shadow the storage/ folder that replaced it.
for (const pkg of ['shared-contracts', 'api']) {
  rmSync(join(root, pkg, 'dist'), { recursive: true, force: true });
  rmSync(join(root, pkg, 'tsconfig.tsbuildinfo'), { force: true });
}
run(bin('tsc'), ['-b', 'tsconfig.json']);
run(bin('webpack'), [
  '--mode',
  'production',
  ...['shell', 'remote-public', 'remote-patient', 'remote-doctor'].flatMap((app) => ['-c', `${app}/webpack.config.ts`]),
]);
// The first screen of `/` and of the logins as HTML, rendered from the sources just built
// (docs/remotes.md "Prerendered first screens").
await prerender();
// Each app's headers for hosts that serve files only (docs/deploy-static.md), for the shell's default
// runtime-config.json; a deployment writes them again for its own. No meta policy in the pages here:
// the Node web server sends its own per request, and a second, stale policy in the page would block
// a remote moved by an edit of runtime-config.json.
const runtimeConfig = await readRuntimeConfig(join(root, 'shell', 'dist', 'runtime-config.json'));
for (const app of ['shell', 'remote-public', 'remote-patient', 'remote-doctor'])
  writeStaticHeaders({ dir: join(root, app, 'dist'), runtimeConfig });
