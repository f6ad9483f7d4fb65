import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { outboxDir, type MailMessage, type Mailer } from './mail';
import type { MailOutbox } from './mail-outbox';
import { mailOutbox } from '../db/schema';
import { MailQueue } from './mail-queue';
import { BACKENDS, createTestApp, createTestDb, readOutbox, signup, type TestApp, type TestDb } from '../test/helpers';

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

  it('signup still answers 201; the verification mail is kept and written once the outbox takes it', async () => {
    const outbox = outboxDir(t.dataDir);
    fs.rmSync(outbox, { recursive: true, force: true });
    fs.writeFileSync(outbox, 'in the way');
    const email = `queued.${process.pid}@example.com`;
    await signup(t.app, 'patient', { email }, { verified: false }); // throws unless 201
    await t.app.backgroundTasks.idle();
    expect(await t.db.db.select().from(mailOutbox)).toHaveLength(1);
    expect(lines.some((l) => l.includes('mail could not be sent: kept in the database'))).toBe(true);
    expect(lines.join('\n')).not.toContain(email); // never the address or the link

    t.clock.advance(60_000);
    await t.app.mailQueue.retryNow(); // still in the way: kept
    expect(await t.db.db.select().from(mailOutbox)).toHaveLength(1);

    fs.rmSync(outbox);
    t.clock.advance(60_000);
    await t.app.mailQueue.retryNow();
    expect(await t.db.db.select().from(mailOutbox)).toEqual([]);
    const mails = await readOutbox(t);
    expect(mails.map((m) => m.headers.to)).toEqual([email]);
    expect(mails[0].text).toContain('/verify-email/');
    expect(fs.readdirSync(outbox).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe.each(BACKENDS)('kept mail survives a restart (%s)', (backend) => {
  it('a mail kept while the outbox could not be written is sent by the next process, sealed meanwhile', async () => {
    const tdb = await createTestDb(backend);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-mail-kept-'));
    try {
      const first = await createTestApp(tdb.adapter, { DATA_DIR: dataDir });
      const outbox = outboxDir(dataDir);
      fs.rmSync(outbox, { recursive: true, force: true });
      fs.writeFileSync(outbox, 'in the way');
      const email = `restart.${process.pid}.${backend}@example.com`;
      await signup(first.app, 'patient', { email }, { verified: false });
      await first.app.backgroundTasks.idle();
      const [row] = await tdb.adapter.db.select().from(mailOutbox);
      expect(row.sealed).not.toContain(email); // sealed: the address and the link are not readable in the table
      expect(row.sealed).not.toContain('verify-email');
      await first.app.close(); // the process stops with the mail unsent
      await tdb.adapter.close();

      fs.rmSync(outbox);
      const reopened = await tdb.reopen(); // the next process
      const second = await createTestApp(reopened, { DATA_DIR: dataDir });
      try {
        await second.app.mailQueue.retryNow(); // the round it started with (not due yet)
        second.clock.advance(60 * 60_000); // its retry time has come
        await second.app.mailQueue.retryNow();
        const mails = await readOutbox(second);
        expect(mails.map((m) => m.headers.to)).toEqual([email]);
        expect(mails[0].text).toContain('/verify-email/');
        expect(await second.db.db.select().from(mailOutbox)).toEqual([]);
      } finally {
        await second.app.close();
        await reopened.close();
      }
    } finally {
      await tdb.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('MailQueue', () => {
  // The transport at the outside edge: refuses one address for good, others while `down`.
  function transport() {
    const delivered: string[] = [];
    const state = { down: true };
    const inner: Mailer = {
      kind: 'smtp',
      async send(m) {
        if (m.to === 'refused@example.com' || state.down) throw Object.assign(new Error('cannot send'), { code: 'ENOSPC' });
        delivered.push(m.to);
        return { messageId: `<${m.to}>` };
      },
      close: () => undefined,
    };
    return { inner, delivered, state };
  }
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

  it('a message that keeps failing holds up no other; a send that works again takes the queue along', async () => {
    const { inner, delivered, state } = transport();
    const queue = new MailQueue(inner, quiet);
    try {
      await queue.send({ to: 'refused@example.com', subject: 's', text: 't' });
      await queue.send({ to: 'a@example.com', subject: 's', text: 't' });
      expect(queue.pending).toBe(2);
      state.down = false;
      await queue.retryNow();
      expect(delivered).toEqual(['a@example.com']);
      expect(queue.pending).toBe(1);

      state.down = true;
      await queue.send({ to: 'b@example.com', subject: 's', text: 't' });
      state.down = false;
      expect(await queue.send({ to: 'c@example.com', subject: 's', text: 't' })).toEqual({ messageId: '<c@example.com>' });
      await queue.retryNow();
      expect(delivered).toEqual(['a@example.com', 'c@example.com', 'b@example.com']);
      expect(queue.pending).toBe(1); // only the refused one
    } finally {
      queue.close();
    }
  });

  it('asked again while a round runs (a row put in the outbox after its claim), another round follows and sends it', async () => {
    const { inner, delivered, state } = transport();
    state.down = false;
    // an outbox in memory: rows are due at once; the first claim waits until released
    const rows: { id: string; message: MailMessage }[] = [
      { id: '1', message: { to: 'first@example.com', subject: 's', text: 't' } },
    ];
    let release!: () => void;
    const firstClaimHeld = new Promise<void>((resolve) => (release = resolve));
    let claims = 0;
    const outbox: MailOutbox = {
      save: async () => undefined,
      async claimDue() {
        const claimed = rows.map((r) => ({ id: r.id, message: r.message, attempts: 0 }));
        if (claims++ === 0) await firstClaimHeld;
        return claimed;
      },
      sent: async (id) =>
        void rows.splice(
          rows.findIndex((r) => r.id === id),
          1,
        ),
      failed: async () => undefined,
      pending: async () => rows.length,
    };
    const queue = new MailQueue(inner, quiet, outbox);
    try {
      const round = queue.retryNow();
      await new Promise((r) => setImmediate(r)); // the round has claimed row 1 and waits
      rows.push({ id: '2', message: { to: 'second@example.com', subject: 's', text: 't' } }); // committed meanwhile
      const asked = queue.retryNow();
      release();
      await Promise.all([round, asked]);
      expect(delivered).toEqual(['first@example.com', 'second@example.com']);
      expect(rows).toEqual([]);
    } finally {
      queue.close();
    }
  });

  it('logs at close what is still queued (it is lost)', async () => {
    const { inner } = transport();
    const errors: object[] = [];
    const queue = new MailQueue(inner, { ...quiet, error: (obj) => errors.push(obj) });
    await queue.send({ to: 'x@example.com', subject: 's', text: 't' });
    queue.close();
    expect(errors).toEqual([{ lost: 1 }]);
  });
});
