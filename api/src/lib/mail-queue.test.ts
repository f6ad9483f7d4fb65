import fs from 'node:fs';
import { outboxDir } from '../adapters/mail';
import { createTestApp, createTestDb, readOutbox, signup, type TestApp, type TestDb } from '../test/helpers';

/*
 * The app's mail is kept and sent again when it cannot be sent now (FAULTS.md "Mail that cannot be
 * written now is sent later"). The outbox is made unwritable with a file where its folder should be.
 */
describe('mail whose outbox cannot be written', () => {
  let tdb: TestDb;
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    tdb = await createTestDb('pglite');
    t = await createTestApp(tdb.adapter, { LOG_LEVEL: 'info' }, undefined, (line) => lines.push(line));
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  it('signup still answers 201; the verification mail is queued and written once the outbox takes it', async () => {
    const outbox = outboxDir(t.dataDir);
    fs.rmSync(outbox, { recursive: true, force: true });
    fs.writeFileSync(outbox, 'in the way');
    const email = `queued.${process.pid}@example.com`;
    await signup(t.app, 'patient', { email }, { verified: false }); // throws unless 201
    await t.app.backgroundTasks.idle();
    expect(t.app.mailQueue.pending).toBe(1);
    expect(lines.some((l) => l.includes('mail could not be sent: queued'))).toBe(true);
    expect(lines.join('\n')).not.toContain(email); // never the address or the link

    await t.app.mailQueue.retryNow(); // still in the way: kept
    expect(t.app.mailQueue.pending).toBe(1);

    fs.rmSync(outbox);
    await t.app.mailQueue.retryNow();
    expect(t.app.mailQueue.pending).toBe(0);
    const mails = await readOutbox(t);
    expect(mails.map((m) => m.headers.to)).toEqual([email]);
    expect(mails[0].text).toContain('/verify-email/');
    expect(fs.readdirSync(outbox).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
