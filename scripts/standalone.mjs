// `npm run start:standalone -w remote-patient`: one remote alone in its thin QA host, on its own port.
// It talks to the api at API_URL (default http://localhost:4000): start that with `npm start -w api`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startWebServer } from './web-server.mjs';

const app = process.cwd();
const name = basename(app);
const defaultPorts = { 'remote-public': 8081, 'remote-patient': 8082, 'remote-doctor': 8083 };
if (!(name in defaultPorts)) throw new Error(`run this from a remote's folder, not ${app}`);
const port = Number(process.env.PORT ?? defaultPorts[name]);

execFileSync(join(app, '..', 'node_modules', '.bin', 'webpack'), ['--mode', 'production'], { cwd: app, stdio: 'inherit' });
const runtimeConfigFile = join(app, 'dist', 'runtime-config.json');
mkdirSync(join(app, 'dist'), { recursive: true });
writeFileSync(runtimeConfigFile, JSON.stringify({ apiUrl: process.env.API_URL ?? 'http://localhost:4000', remotes: {} }));
await startWebServer({ dir: join(app, 'dist'), port, runtimeConfigFile });
console.log(`${name} standalone at http://localhost:${port}`);
