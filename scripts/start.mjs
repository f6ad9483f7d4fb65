// `npm start`: the api and the four web apps on the embedded defaults, in one terminal.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRuntimeConfig } from './runtime-config.mjs';
import { startWebServer } from './web-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const port = (name, fallback) => Number(env[name] ?? fallback);
const ports = {
  api: port('PORT', 4000),
  shell: port('SHELL_PORT', 8080),
  public: port('REMOTE_PUBLIC_PORT', 8081),
  patient: port('REMOTE_PATIENT_PORT', 8082),
  doctor: port('REMOTE_DOCTOR_PORT', 8083),
};
const host = env.WEB_HOST ?? 'localhost';
const origin = (p) => `http://${host}:${p}`;
const apiUrl = env.API_URL ?? origin(ports.api);
const dataDir = resolve(root, env.DATA_DIR ?? 'data');

const runtimeConfigFile = join(dataDir, 'runtime-config.json');
mkdirSync(dataDir, { recursive: true });
writeRuntimeConfig(runtimeConfigFile, {
  apiUrl,
  remotes: { public: origin(ports.public), patient: origin(ports.patient), doctor: origin(ports.doctor) },
});

const api = spawn(process.execPath, [join(root, 'api/dist/server.js')], {
  stdio: 'inherit',
  env: {
    ...env,
    PORT: String(ports.api),
    DATA_DIR: dataDir,
    WEB_ORIGINS: env.WEB_ORIGINS ?? Object.values(ports).slice(1).map(origin).join(','),
    // Reset links and Google sign-in come back to the shell; Google calls the api back.
    WEB_ORIGIN: env.WEB_ORIGIN ?? origin(ports.shell),
    API_PUBLIC_URL: env.API_PUBLIC_URL ?? apiUrl,
  },
});

const servers = await Promise.all([
  startWebServer({ dir: join(root, 'shell/dist'), port: ports.shell, runtimeConfigFile }),
  startWebServer({ dir: join(root, 'remote-public/dist'), port: ports.public, runtimeConfigFile }),
  startWebServer({ dir: join(root, 'remote-patient/dist'), port: ports.patient, runtimeConfigFile }),
  startWebServer({ dir: join(root, 'remote-doctor/dist'), port: ports.doctor, runtimeConfigFile }),
]);
console.log(`\nCareLoop is running at ${origin(ports.shell)}  (api ${apiUrl}, docs ${apiUrl}/docs)\n`);

const stop = () => {
  for (const s of servers) s.close();
  api.kill('SIGTERM');
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
api.once('exit', (code) => {
  for (const s of servers) s.close();
  process.exitCode = code ?? 0;
});
