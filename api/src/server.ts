// First: traces, when OTEL_* asks for them, patch fastify, pg and undici as they load (telemetry/index.ts).
import './telemetry/register';
import { stopTelemetry } from './telemetry';
import { buildApp } from './app';
import { systemClock } from './adapters/clock';
import { openDatabase, type DbAdapter } from './adapters/db';
import { createMailer } from './adapters/mail';
import { createStorage } from './adapters/storage';
import { loadConfig } from './config';
import { closeWithin } from './http/shutdown';
import { startOrphanSweeps } from './modules/files/orphan-sweep';
import { startReminderRunner, type ReminderRunner } from './modules/reminders/boss';
import { restrictToOwner, setOwnerOnlyUmask } from './lib/owner-only';
import { serveSnapshots, type SnapshotServer } from './ops/snapshot-socket';
import { OPERATOR } from './ops/verify-doctor';
import { verifyDoctorRegistration } from './modules/profiles/registration';
import { createSecretBox } from './lib/secret-box';
import { openEncryptionKey } from './modules/account/two-factor/key-check';

// Run as `node dist/server.js` directly (not through `sh -c`) so SIGTERM/SIGINT reach this process.
async function main(): Promise<void> {
  const config = loadConfig();
  // Before anything is written: new files owner-only, and existing ones (0666 database files of
  // older versions) tightened before the database opens them.
  setOwnerOnlyUmask();
  try {
    const changed = restrictToOwner(config.dataDir);
    if (changed > 0) console.warn(`Made ${changed} paths in ${config.dataDir} readable by their owner only (0700/0600).`);
  } catch (err) {
    console.error(`CareLoop api could not restrict ${config.dataDir} to its owner: ${(err as Error).message}`);
    process.exitCode = 1;
    return;
  }
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

  let encryption: Awaited<ReturnType<typeof openEncryptionKey>>;
  try {
    encryption = await openEncryptionKey(database.db, config);
  } catch (err) {
    await database.close();
    console.error(`CareLoop api could not load its encryption key: ${(err as Error).message}`);
    process.exitCode = 1;
    return;
  }
  if (encryption.source !== 'env' && config.databaseUrl) {
    console.warn(
      `ENCRYPTION_KEY is unset: using the key file in ${config.dataDir}. Several api replicas on one database ` +
        'must share one ENCRYPTION_KEY, or two-factor secrets saved by one will not open on another.',
    );
  }

  let files: ReturnType<typeof createStorage>;
  try {
    files = createStorage(config, systemClock);
  } catch (err) {
    await database.close();
    console.error(`CareLoop api could not set up file storage: ${(err as Error).message}`);
    process.exitCode = 1;
    return;
  }
  if (files.keySource && files.keySource !== 'env' && config.databaseUrl) {
    console.warn(
      `FILES_SIGNING_KEY is unset: using the key file in ${config.dataDir}. Several api replicas must share one ` +
        'FILES_SIGNING_KEY (and one files directory), or file URLs made by one will be refused by another.',
    );
  }

  // eslint-disable-next-line prefer-const -- assigned once the app exists; the mailer's logger reads it later
  let logTo: { info(obj: object, msg: string): void } | undefined;
  const mailer = createMailer(config, { info: (obj, msg) => logTo?.info(obj, msg) });
  const app = await buildApp({
    db: database,
    clock: systemClock,
    config,
    mailer,
    secretBox: createSecretBox(encryption.key),
    storage: files.storage,
  });
  logTo = app.log;
  if (encryption.source === 'new-file') app.log.info(`created a new encryption key file in ${config.dataDir}`);
  if (files.keySource === 'new-file') app.log.info(`created a new files signing key file in ${config.dataDir}`);
  app.log.info({ storage: files.storage.kind }, 'medical file storage');

  // Online backups of the embedded database are taken by this process (ops/snapshot-socket.ts).
  let snapshots: SnapshotServer | undefined;
  if (database.kind === 'pglite') {
    try {
      // …and the operator's commands (ops/verify-doctor.ts): this process holds the database.
      snapshots = await serveSnapshots(
        config.dataDir,
        () => database.dumpDataDir!(),
        app.log,
        ({ doctor }) => verifyDoctorRegistration(database.db, { doctor, by: OPERATOR, at: systemClock.now() }),
      );
    } catch (err) {
      app.log.warn({ err }, 'online backups unavailable: stop the api to take a backup (docs/backup-and-restore.md)');
    }
  }

  let reminderRunner: ReminderRunner | undefined;
  // eslint-disable-next-line prefer-const -- assigned once listening; stop() may run before that
  let orphanSweeps: ReturnType<typeof startOrphanSweeps> | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      // Side by side, each bounded: the HTTP side by SHUTDOWN_GRACE_SECONDS (then the rest is cut),
      // the reminder runner by its current sweep (its mails and their rows are finished, none begun).
      const [http] = await Promise.allSettled([
        closeWithin(app, config.shutdownGraceSeconds * 1000),
        reminderRunner?.stop().catch((err) => app.log.error({ err }, 'reminder runner did not stop cleanly')),
      ]);
      if (http.status === 'rejected') throw http.reason;
      app.log.info({ signal, http: http.value }, 'stopped');
    } finally {
      // After both: background mail and a running sweep still use the mailer and the database.
      await orphanSweeps?.stop(); // an orphan sweep under way finishes first (it never throws)
      mailer.close();
      await snapshots?.close();
      await database.close(); // PGlite must be closed cleanly or its files may need recovery
      await stopTelemetry(); // the spans still buffered are sent
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
  try {
    reminderRunner = await startReminderRunner({
      db: database,
      mailer,
      clock: systemClock,
      pollSeconds: config.reminders.pollSeconds,
      maxAttempts: config.reminders.maxAttempts,
      timeZone: config.clinicTimeZone,
      leaseMs: config.reminders.leaseMs,
      log: app.log,
    });
  } catch (err) {
    app.log.error({ err }, 'could not start the reminder runner');
    await stop('reminder-runner-failure');
    process.exitCode = 1;
    return;
  }
  // Temp files and unstored uploads left by a crash or an outage: swept now, then hourly.
  orphanSweeps = startOrphanSweeps({ db: database, storage: files.storage, config }, app.log);
  const where = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}/db` : 'PostgreSQL (DATABASE_URL)';
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.log(`CareLoop api listening on http://${shownHost}:${config.port} (database: ${where}; docs at /docs)`);
}

void main();
