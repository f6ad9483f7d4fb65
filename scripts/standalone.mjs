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
// `remotes` tells each host where the others are (the public host links to their logins).
const remotes = Object.fromEntries(
  Object.entries(defaultPorts).map(([remote, p]) => [
    remote.replace('remote-', ''),
    `http://localhost:${remote === name ? port : p}/remoteEntry.js`,
  ]),
);
writeFileSync(runtimeConfigFile, JSON.stringify({ apiUrl: process.env.API_URL ?? 'http://localhost:4000', remotes }));
await startWebServer({ dir: join(app, 'dist'), port, runtimeConfigFile });
console.log(`${name} standalone at http://localhost:${port}`);
// The api answers only origins in its WEB_ORIGINS (CORS); its default lists 8080-8083.
const defaultOrigins = [8080, ...Object.values(defaultPorts)].map((p) => `http://localhost:${p}`);
const origin = `http://localhost:${port}`;
if (!defaultOrigins.includes(origin)) {
  console.log(`On port ${port} every api call fails on CORS unless the api allows this origin: start it with`);
  console.log(`  WEB_ORIGINS=${[...defaultOrigins, origin].join(',')} npm start -w api`);
}
