// Writes the api's OpenAPI document, exactly as GET /openapi.json serves it, then lints it with
// Redocly (0 errors is the bar): `npm run lint:openapi`. Needs the built api (tsc -b api).
// Nothing is started: the app is built with no database and asked for its document.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const api = (file) => require(path.join(root, 'api/dist', file));
const { buildApp } = api('app.js');
const { loadConfig } = api('config.js');
const { createStorage } = api('adapters/storage/index.js');
const { createMailer } = api('adapters/mail.js');
const { createSecretBox } = api('lib/secret-box.js');
const { systemClock } = api('adapters/clock.js');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-openapi-'));
try {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  // No route runs: a database that is never opened is enough.
  const db = new Proxy(
    {},
    {
      get: () => {
        throw new Error('openapi.mjs: no database here');
      },
    },
  );
  const app = await buildApp({
    db,
    clock: systemClock,
    config,
    mailer: createMailer(config),
    secretBox: createSecretBox(Buffer.alloc(32)),
    storage: createStorage(config, systemClock).storage,
  });
  await app.ready();
  const file = path.join(dataDir, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(app.swagger(), null, 2));
  await app.close();

  const lint = spawnSync(path.join(root, 'node_modules/.bin/redocly'), ['lint', file, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  process.exitCode = lint.status ?? 1;
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
