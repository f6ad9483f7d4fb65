// `npm start`: the api and the four web apps on the embedded defaults, in one terminal.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** Where the browser sends a presigned upload: path-style on the endpoint, virtual-hosted on AWS (api/src/adapters/storage/s3.ts). */
function s3Origin(endpoint, bucket) {
  const url = new URL(endpoint);
  if (/(^|\.)amazonaws\.com(\.cn)?$/i.test(url.hostname)) url.hostname = `${bucket}.${url.hostname}`;
  return url.origin;
}

const runtimeConfigFile = join(dataDir, 'runtime-config.json');
mkdirSync(dataDir, { recursive: true });
writeFileSync(
  runtimeConfigFile,
  JSON.stringify(
    {
      apiUrl,
      remotes: {
        public: `${origin(ports.public)}/mf-manifest.json`,
        patient: `${origin(ports.patient)}/mf-manifest.json`,
        doctor: `${origin(ports.doctor)}/mf-manifest.json`,
      },
      // Automatic logoff after this many minutes without activity (HIPAA §164.312(a)(2)(iii)).
      idleTimeoutMinutes: Number(env.IDLE_TIMEOUT_MINUTES) > 0 ? Number(env.IDLE_TIMEOUT_MINUTES) : 15,
      // Presigned uploads go to the bucket: its origin must be in the pages' CSP connect-src.
      ...(env.S3_ENDPOINT && env.S3_BUCKET ? { connectOrigins: [s3Origin(env.S3_ENDPOINT, env.S3_BUCKET)] } : {}),
    },
    null,
    2,
  ),
);

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
