import { buildApp } from './app';
import { systemClock } from './adapters/clock';
import { openDatabase, type DbAdapter } from './adapters/db';
import { loadConfig } from './config';

// Run as `node dist/server.js` directly (not through `sh -c`) so SIGTERM/SIGINT reach this process.
async function main(): Promise<void> {
  const config = loadConfig();
  let db: DbAdapter | undefined;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await db.migrate();
  } catch (err) {
    await db?.close().catch(() => undefined);
    console.error(`CareLoop api could not open its database: ${(err as Error).message}`);
    process.exitCode = 1;
    return;
  }
  const database = db;

  const app = await buildApp({ db: database, clock: systemClock, config });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close(); // stops accepting, lets in-flight requests finish
    } finally {
      await database.close(); // PGlite must be closed cleanly or its files may need recovery
    }
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stop(signal).then(
        () => process.exit(0),
        (err) => {
          console.error(err);
          process.exit(1);
        },
      );
    });
  }

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    app.log.error({ err }, 'could not listen');
    await stop('listen-failure');
    process.exitCode = 1;
    return;
  }
  const where = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}/db` : 'PostgreSQL (DATABASE_URL)';
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.log(`CareLoop api listening on http://${shownHost}:${config.port} (database: ${where}; docs at /docs)`);
}

void main();
