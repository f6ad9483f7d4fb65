import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, selectRows, type DbAdapter } from '../adapters/db';
import { recordBody } from '../test/clinical';
import {
  connectVia,
  createDatabase,
  describeFaults,
  expectHttp,
  http,
  killAll,
  pool,
  signupVia,
  startApi,
  tempDir,
} from '../test/faults-kit';

/*
 * kill -9 in the middle of a burst of record creations (FAULTS.md). The real api (src/server.ts)
 * gets BURST concurrent POST /medicalhistory/{patientId}, and is SIGKILLed once KILL_AFTER of
 * them have answered 201. Restarted on the same data (PGlite: the dead process's lock file is
 * taken over, the database recovers), it must still have every acknowledged record, and nothing
 * half-written: each stored record is whole and has its 'create' audit row (one transaction).
 */

const BURST = 200;
const IN_FLIGHT = 16;
const KILL_AFTER = 40;

type Backend = 'pglite' | 'postgres';

async function burstAndKill(backend: Backend): Promise<void> {
  const dataDir = tempDir(`fault-kill9-${backend}`);
  const databaseUrl = backend === 'postgres' ? await createDatabase() : undefined;
  const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl };

  const first = await startApi(env);
  const doctor = await signupVia(first.url, 'doctor', 'Dr Kill');
  const patient = await signupVia(first.url, 'patient');
  await connectVia(first.url, first.url, doctor, patient);

  // The burst: every 201 is remembered (id → title) the moment it arrives.
  const acknowledged = new Map<string, string>();
  let killed = false;
  let killing: Promise<unknown> | undefined;
  const failures: string[] = [];
  const { started } = await pool(
    BURST,
    IN_FLIGHT,
    async (i) => {
      const title = `Burst ${i}`;
      const res = await http(first.url, 'POST', `/medicalhistory/${patient.id}`, {
        token: doctor.token,
        body: recordBody({ title, allergies: `allergy ${i}`, drug: 'Amoxicillin', gpe: { pulse: 72 } }),
      });
      if (res.status === 201 && !killed) {
        acknowledged.set(res.body.record._id, title);
        if (acknowledged.size >= KILL_AFTER && !killing) {
          killed = true;
          killing = first.kill('SIGKILL');
        }
      } else if (!killed) {
        failures.push(`burst request ${i}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      return res.status;
    },
    () => killed,
  );
  expect(failures).toEqual([]); // before the kill, every request succeeded
  expect(await killing).toBe('SIGKILL');
  expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(started).toBeLessThan(BURST); // really killed mid-burst
  if (backend === 'pglite') {
    // The dead process's lock file is still there; the restart must take it over.
    expect(fs.readFileSync(path.join(dataDir, 'db.lock'), 'utf8')).toBe(String(first.pid));
  }

  // Restart on the same data.
  const second = await startApi(env);
  expect(second.pid).not.toBe(first.pid);

  // Every acknowledged record is there, unchanged.
  await pool([...acknowledged].length, 8, async (i) => {
    const [id, title] = [...acknowledged][i];
    const rec = await expectHttp(second.url, 'GET', `/medicalHistory/${id}`, 200, { token: doctor.token });
    expect(rec.title).toBe(title);
  });

  // Every stored record (through the API): complete, one of the requests sent, no more than sent.
  const stored: any[] = [];
  for (let page = 1; page <= 10; page++) {
    const list = await expectHttp(second.url, 'GET', `/medicalhistories?patientId=${patient.id}&limit=100&page=${page}`, 200, {
      token: doctor.token,
    });
    stored.push(...list.items);
    if (stored.length >= list.total) break;
  }
  expect(stored.length).toBeGreaterThanOrEqual(acknowledged.size);
  expect(stored.length).toBeLessThanOrEqual(started);
  console.log(
    `kill -9 on ${backend}: ${started} requests sent, ${acknowledged.size} acknowledged before the kill, ${stored.length} stored after the restart`,
  );
  for (const rec of stored) {
    const i = Number(/^Burst (\d+)$/.exec(rec.title)?.[1]);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(i).toBeLessThan(started);
    expect(rec.allergies).toBe(`allergy ${i}`);
    expect(rec.treatment.prescribedDrug).toBe('Amoxicillin');
    expect(rec.biodata.modeOfAdmission).toBe('Emergency');
    expect(rec.doctorInfo.doctorName).toBe('Dr Kill');
    // a measured vital is stored whole (an unmeasured one would be null since issue 12)
    expect(rec.examination.generalPhysicalExamination.pulse).toBe(72);
  }
  expect(new Set(stored.map((r) => r._id)).size).toBe(stored.length);

  // Still writable after the crash.
  await expectHttp(second.url, 'POST', `/medicalhistory/${patient.id}`, 201, {
    token: doctor.token,
    body: recordBody({ title: 'After restart' }),
  });

  // In SQL: every record has exactly one 'create' audit row, and no audit row lacks its record.
  // PGlite is one process only: stop the api cleanly first, then open its directory here.
  let adapter: DbAdapter;
  if (backend === 'pglite') {
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
    adapter = await openDatabase({ dataDir });
  } else {
    adapter = await openDatabase({ databaseUrl, dataDir });
  }
  try {
    const [counts] = await selectRows<{ records: number; creates: number; orphans: number; unaudited: number; doubled: number }>(
      adapter.db,
      sql`select
        (select count(*)::int from medical_records) as records,
        (select count(*)::int from audit_log where entity = 'medical_record' and action = 'create') as creates,
        (select count(*)::int from audit_log a where a.entity = 'medical_record' and a.action = 'create'
           and not exists (select 1 from medical_records r where r.id = a.entity_id)) as orphans,
        (select count(*)::int from medical_records r where not exists
           (select 1 from audit_log a where a.entity = 'medical_record' and a.action = 'create' and a.entity_id = r.id)) as unaudited,
        (select count(*)::int from (select entity_id from audit_log where entity = 'medical_record' and action = 'create'
           group by entity_id having count(*) > 1) d) as doubled`,
    );
    expect(counts).toEqual({ records: stored.length + 1, creates: stored.length + 1, orphans: 0, unaudited: 0, doubled: 0 });
    const [incomplete] = await selectRows<{ n: number }>(
      adapter.db,
      sql`select count(*)::int as n from medical_records where title = '' or biodata is null or doctor_info is null or history is null
        or systemic_history is null or examination is null or investigations is null or treatment is null`,
    );
    expect(incomplete.n).toBe(0);
  } finally {
    await adapter.close();
  }
}

describeFaults('fault: kill -9 during a burst of record creations (PGlite)', { postgres: false }, () => {
  afterAll(killAll);
  it(
    'keeps every acknowledged record and no partial one after a restart on the same data',
    () => burstAndKill('pglite'),
    120_000,
  );
});

describeFaults('fault: kill -9 during a burst of record creations (PostgreSQL)', { postgres: true }, () => {
  afterAll(killAll);
  it(
    'keeps every acknowledged record and no partial one after a restart on the same data',
    () => burstAndKill('postgres'),
    120_000,
  );
});
