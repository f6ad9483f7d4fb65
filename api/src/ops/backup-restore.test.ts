import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { MedicalFilesResponse, UploadUrlResponse } from '@careloop/shared-contracts';
import { runDueReminders } from '../access';
import { openDatabase, selectRows, type DbAdapter } from '../adapters/db';
import { reminders } from '../db/schema';
import { openEncryptionKey } from '../modules/account/two-factor/key-check';
import { account, connect, recordBody, setClock } from '../test/clinical';
import { local, PDF } from '../test/files';
import {
  BACKENDS,
  logIn,
  PASSWORD,
  bearer,
  createTestApp,
  createTestDb,
  readOutbox,
  testConfig,
  totpCode,
  type TestApp,
  type TestDb,
} from '../test/helpers';
import { takeBackup } from './backup';
import { MANIFEST, type BackupManifest } from './manifest';
import { restoreBackup } from './restore';
import { serveSnapshots, type SnapshotServer } from './snapshot-socket';

/*
 * The whole round trip on a running app: records, files, reminders, audit rows and a two-factor
 * account are written (records keep being written while the backup runs), a backup is taken,
 * more is written, and the backup is restored into an empty place. Everything acknowledged before
 * the backup began is there, each file row's bytes come back, the two-factor secret still opens
 * with the restored key, and no reminder occurrence that was already due is mailed again.
 */
// Whole installations are written, dumped and loaded: minutes on a busy machine, not the default 30 s.
jest.setTimeout(300_000);

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const quiet = { info: () => undefined, error: () => undefined };
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), `careloop-${prefix}-`));
const reminderMails = async (t: TestApp) =>
  (await readOutbox(t)).map((m) => m.headers.subject).filter((s) => s === 'daily' || s === 'once');
const pdfNo = (n: number) => Buffer.concat([PDF, Buffer.from(`%careloop backup test ${n}\n`, 'latin1')]);

describe.each(BACKENDS)('backup and restore on %s', (backend) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  async function sourceApp(): Promise<{ t: TestApp; snapshots?: SnapshotServer }> {
    const dataDir = tmp('backup-source');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    let adapter: DbAdapter;
    let env: Record<string, string> = { DATA_DIR: dataDir };
    if (backend === 'pglite') {
      adapter = await openDatabase({ dataDir });
      await adapter.migrate();
      cleanups.push(() => adapter.close());
    } else {
      const tdb = await createTestDb('postgres');
      cleanups.push(() => tdb.cleanup());
      adapter = tdb.adapter;
      env = { ...env, DATABASE_URL: adapter.connectionString! };
    }
    const t = await createTestApp(adapter, env);
    cleanups.push(() => t.app.close());
    // as server.ts does: the running app answers the backup's snapshot request
    const snapshots = backend === 'pglite' ? await serveSnapshots(dataDir, () => adapter.dumpDataDir!(), quiet) : undefined;
    if (snapshots) cleanups.push(() => snapshots.close());
    return { t, snapshots };
  }

  async function emptyTarget(): Promise<{ dataDir: string; env: Record<string, string> }> {
    const dataDir = tmp('restore-target');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    if (backend === 'pglite') return { dataDir, env: { DATA_DIR: dataDir } };
    const tdb: TestDb = await createTestDb('postgres', { migrate: false });
    cleanups.push(() => tdb.cleanup());
    return { dataDir, env: { DATA_DIR: dataDir, DATABASE_URL: tdb.adapter.connectionString! } };
  }

  it('restores every acknowledged row with its file, the two-factor secret, and sends no past reminder again', async () => {
    const { t } = await sourceApp();
    const T0 = t.clock.now().getTime();
    const doctor = await account(t, 'doctor', { name: 'Dr Back Up' });
    const patient = await account(t, 'patient', { name: 'Pat Restore' });
    await connect(t, doctor, patient);

    // two-factor on for the patient
    const setup = (await t.app.inject({ method: 'GET', url: '/patient/qrCode', headers: bearer(patient.token) })).json();
    const on = await t.app.inject({
      method: 'POST',
      url: '/patient/verifyqrCode',
      headers: bearer(patient.token),
      payload: { code: totpCode(setup.secret, t.clock.now()) },
    });
    expect(on.json()).toMatchObject({ verify: true });

    const newRecord = async (n: number) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/medicalhistory/${patient.id}`,
        headers: bearer(doctor.token),
        payload: recordBody({ title: `Visit ${n}` }),
      });
      expect(res.statusCode).toBe(201);
      return res.json().record._id as string;
    };
    const upload = async (n: number) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/medical-record/${patient.id}?fileType=application%2Fpdf&fileName=scan-${n}.pdf`,
        headers: bearer(patient.token),
      });
      const { uploadUrl } = UploadUrlResponse.parse(res.json());
      const put = await t.app.inject({
        method: 'PUT',
        url: local(uploadUrl),
        headers: { 'content-type': 'application/pdf' },
        payload: pdfNo(n),
      });
      expect(put.statusCode).toBe(200);
    };
    const reminder = async (subject: string, startAt: number, intervalDays: number) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/doctor/reminder',
        headers: bearer(doctor.token),
        payload: {
          to: patient.email,
          subject,
          text: 'Take your tablets.',
          startDate: new Date(startAt).toISOString(),
          intervalDays,
        },
      });
      expect(res.statusCode).toBe(201);
    };

    const records: string[] = [];
    for (let n = 0; n < 3; n++) records.push(await newRecord(n));
    for (let n = 0; n < 3; n++) await upload(n);
    await reminder('daily', T0 + MIN, 1);
    await reminder('once', T0 + 2 * 60 * MIN, 0);
    setClock(t, new Date(T0 + 2 * MIN).toISOString());
    await runDueReminders({ db: t.db.db, mailer: t.mailer, maxAttempts: 5, timeZone: t.config.clinicTimeZone }, t.clock.now());
    expect(await reminderMails(t)).toEqual(['daily']);
    const auditBefore = (await selectRows<{ id: string }>(t.db.db, sql`select id from audit_log`)).map((r) => r.id);
    expect(auditBefore.length).toBeGreaterThan(0);

    // light load: records keep being written while the backup is taken
    let loading = true;
    const load = (async () => {
      let n = 100;
      while (loading) await newRecord(n++);
    })();
    const folder = path.join(tmp('backup'), 'careloop-backup');
    cleanups.push(() => fs.rmSync(path.dirname(folder), { recursive: true, force: true }));
    const { manifest } = await takeBackup(t.config, folder);
    loading = false;
    await load;

    // the manifest describes the folder
    expect(JSON.parse(fs.readFileSync(path.join(folder, MANIFEST), 'utf8'))).toEqual(manifest);
    expect(manifest.database.kind).toBe(backend);
    expect(manifest.files.store).toBe('local');
    expect(manifest.files.missing).toEqual([]);
    expect(manifest.files.entries).toHaveLength(manifest.rowCounts.medical_files);
    expect(manifest.rowCounts.medical_records).toBeGreaterThanOrEqual(3);
    expect(manifest.keys.encryption).toMatchObject({ source: 'file', file: 'keys/encryption.key' });
    expect(manifest.schema.appliedMigrations).toBeGreaterThan(0);

    // after the backup: more writes, and a day passes on the old installation (reminders go out)
    const lateRecord = await newRecord(999);
    await upload(999);
    setClock(t, new Date(T0 + DAY + 2 * MIN).toISOString());
    await runDueReminders({ db: t.db.db, mailer: t.mailer, maxAttempts: 5, timeZone: t.config.clinicTimeZone }, t.clock.now());
    expect((await reminderMails(t)).sort()).toEqual(['daily', 'daily', 'once']);

    // restore into an empty place
    const target = await emptyTarget();
    const restoredAt = new Date(T0 + DAY + 3 * MIN);
    const restored = await restoreBackup(testConfig(target.env), folder, { now: restoredAt });
    expect(restored.rowCounts).toEqual(manifest.rowCounts);
    expect(restored.reminders).toMatchObject({ moved: 1, completed: 1 });
    expect(restored.files).toBe(manifest.files.entries.length);

    const db2 =
      backend === 'pglite'
        ? await openDatabase({ dataDir: target.dataDir })
        : await openDatabase({ databaseUrl: target.env.DATABASE_URL, dataDir: '' });
    await db2.migrate();
    const config2 = testConfig(target.env);
    await expect(openEncryptionKey(db2.db, config2)).resolves.toMatchObject({ source: 'file' });
    const t2 = await createTestApp(db2, target.env);
    cleanups.push(async () => {
      await t2.app.close();
      await db2.close();
    });
    setClock(t2, restoredAt.toISOString());
    // a day on, the doctor's old session has ended: signs in again on the restored installation
    // (with the second factor: the doctor's two-factor secret was restored too)
    const doctorToken = await logIn(t2.app, 'doctor', doctor.email);

    // every record acknowledged before the backup is there; the one written after is not
    for (const id of records) {
      const res = await t2.app.inject({ method: 'GET', url: `/medicalHistory/${id}`, headers: bearer(doctorToken) });
      expect(res.statusCode).toBe(200);
    }
    expect(
      (await t2.app.inject({ method: 'GET', url: `/medicalHistory/${lateRecord}`, headers: bearer(doctorToken) })).statusCode,
    ).toBe(404);
    const auditAfter = new Set((await selectRows<{ id: string }>(db2.db, sql`select id from audit_log`)).map((r) => r.id));
    expect(auditBefore.filter((id) => !auditAfter.has(id))).toEqual([]);

    // two-factor still works: the restored key opens the restored secret
    const login = await t2.app.inject({
      method: 'POST',
      url: '/patient/login',
      payload: { email: patient.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const verified = await t2.app.inject({
      method: 'POST',
      url: '/patient/verify2FA',
      payload: { patientId: patient.id, code: totpCode(setup.secret, t2.clock.now()) },
    });
    expect(verified.statusCode).toBe(200);
    const patientToken = verified.json().token as string;
    expect(patientToken).toEqual(expect.any(String));

    // every file row answers with its bytes
    const list = MedicalFilesResponse.parse(
      (await t2.app.inject({ method: 'GET', url: '/medical-record', headers: bearer(patientToken) })).json(),
    );
    expect(list.presignedUrl).toHaveLength(manifest.rowCounts.medical_files);
    const bodies = [];
    for (const url of list.presignedUrl) {
      const res = await t2.app.inject({ method: 'GET', url: local(url) });
      expect(res.statusCode).toBe(200);
      bodies.push(res.rawPayload.toString('latin1'));
    }
    expect(bodies.sort()).toEqual([0, 1, 2].map((n) => pdfNo(n).toString('latin1')).sort());

    // no occurrence that was already due is mailed again; the next one still goes out
    await runDueReminders({ db: db2.db, mailer: t2.mailer, maxAttempts: 5, timeZone: t2.config.clinicTimeZone }, t2.clock.now());
    expect(await reminderMails(t2)).toEqual([]);
    const [daily] = await db2.db.select().from(reminders).where(eq(reminders.subject, 'daily'));
    expect(daily.nextRunAt).toEqual(new Date(T0 + MIN + 2 * DAY));
    setClock(t2, new Date(T0 + 2 * DAY + 2 * MIN).toISOString());
    await runDueReminders({ db: db2.db, mailer: t2.mailer, maxAttempts: 5, timeZone: t2.config.clinicTimeZone }, t2.clock.now());
    expect(await reminderMails(t2)).toEqual(['daily']);
  });

  it('refuses to restore into a place that is not empty, or a backup whose key file is gone or damaged', async () => {
    const { t } = await sourceApp();
    await account(t, 'patient');
    const folder = path.join(tmp('backup'), 'b');
    cleanups.push(() => fs.rmSync(path.dirname(folder), { recursive: true, force: true }));
    const { manifest } = await takeBackup(t.config, folder);

    // a key file missing from the backup: nothing is restored
    const target = await emptyTarget();
    const key = path.join(folder, 'keys', 'encryption.key');
    const saved = fs.readFileSync(key);
    fs.rmSync(key);
    await expect(restoreBackup(testConfig(target.env), folder)).rejects.toThrow(/keys\/encryption\.key is missing/);
    fs.writeFileSync(key, Buffer.from(saved.toString('utf8').replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))));
    await expect(restoreBackup(testConfig(target.env), folder)).rejects.toThrow(
      /keys\/encryption\.key does not match its checksum/,
    );
    fs.writeFileSync(key, saved);
    expect(fs.readdirSync(target.dataDir)).toEqual([]);

    // restored once; a second restore onto it is refused
    await restoreBackup(testConfig(target.env), folder);
    await expect(restoreBackup(testConfig(target.env), folder)).rejects.toThrow(/empty/);
    // into the live source too
    await expect(restoreBackup(t.config, folder)).rejects.toThrow(/empty/);
    expect((manifest as BackupManifest).format).toBe('careloop-backup/1');
  });
});

describe('backup of a stopped embedded database', () => {
  it('opens the database itself when no api holds it', async () => {
    const dataDir = tmp('backup-stopped');
    const backups = tmp('backup-stopped-out');
    try {
      const db = await openDatabase({ dataDir });
      await db.migrate();
      await db.close();
      const { manifest } = await takeBackup(testConfig({ DATA_DIR: dataDir }), path.join(backups, 'b'));
      expect(manifest.rowCounts).toHaveProperty('patients', 0);
      expect(manifest.keys.encryption).toEqual({ source: 'none' });
      // the lock is free again: the api can start
      const again = await openDatabase({ dataDir });
      await again.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(backups, { recursive: true, force: true });
    }
  });
});
