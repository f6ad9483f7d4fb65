import { eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from './db';
import { selectRows } from './db';
import type { MailMessage } from './mail';
import { mailOutbox } from '../db/schema';
import type { SecretBox } from '../lib/secret-box';

/** A message waiting in the database, leased to the sender that claimed it. */
export interface OutboxEntry {
  id: string;
  /** null when the row cannot be opened (sealed with another key): it is given up */
  message: MailMessage | null;
  attempts: number;
}

/** The durable part of the mail queue (table mail_outbox): what survives a restart. */
export interface MailOutbox {
  save(message: MailMessage, at: Date, retryAt: Date, error: string): Promise<void>;
  /** Rows due by `now`, each leased to the caller for LEASE_MS (another replica skips them meanwhile). */
  claimDue(now: Date, limit: number): Promise<OutboxEntry[]>;
  sent(id: string): Promise<void>;
  /** retryAt null: given up (the row goes). */
  failed(id: string, attempts: number, retryAt: Date | null, error: string): Promise<void>;
  pending(): Promise<number>;
}

const CONTEXT = 'mail-outbox';
/** A sender that stops mid-message frees it after this; the message may then go out twice (never lost). */
const LEASE_MS = 2 * 60_000;

/** A message as mail_outbox keeps it: sealed with the encryption key (it may hold a reset link). */
function seal(box: SecretBox, { to, subject, text, html }: MailMessage): string {
  return box.encrypt(JSON.stringify({ to, subject, text, ...(html ? { html } : {}) }), CONTEXT);
}

/**
 * Puts a message in the outbox to be sent now, inside the caller's transaction: it exists exactly
 * when what it tells of was committed. The app's MailQueue sends it (`retryNow()` after the commit,
 * else at start-up or on its next round) and keeps trying while the mailer is down.
 */
export async function enqueueMail(db: Queryable, box: SecretBox, message: MailMessage, at: Date): Promise<void> {
  await db.insert(mailOutbox).values({ sealed: seal(box, message), attempts: 0, nextAttemptAt: at, createdAt: at });
}

/** `database`: read when a message is kept or sent, not when the app is built (the OpenAPI export builds it with none). */
export function createMailOutbox(database: () => Db, box: SecretBox): MailOutbox {
  const unseal = (sealed: string): MailMessage | null => {
    try {
      return JSON.parse(box.decrypt(sealed, CONTEXT)) as MailMessage;
    } catch {
      return null; // another key: given up by the queue, at error
    }
  };
  return {
    async save(message, at, retryAt, error) {
      await database()
        .insert(mailOutbox)
        .values({
          sealed: seal(box, message),
          attempts: 1,
          lastError: error,
          nextAttemptAt: retryAt,
          createdAt: at,
        });
    },

    async claimDue(now, limit) {
      const at = now.toISOString();
      const until = new Date(now.getTime() + LEASE_MS).toISOString();
      const rows = await selectRows<{ id: string; sealed: string; attempts: number }>(
        database(),
        sql`
          update ${mailOutbox} o set lease_until = ${until}::timestamptz
           where o.id in (select m.id from ${mailOutbox} m
                           where m.next_attempt_at <= ${at}::timestamptz
                             and (m.lease_until is null or m.lease_until <= ${at}::timestamptz)
                           order by m.next_attempt_at
                           limit ${limit}
                             for update skip locked)
          returning o.id, o.sealed, o.attempts`,
      );
      return rows.map((r) => ({ id: r.id, message: unseal(r.sealed), attempts: Number(r.attempts) }));
    },

    async sent(id) {
      await database().delete(mailOutbox).where(eq(mailOutbox.id, id));
    },

    async failed(id, attempts, retryAt, error) {
      if (!retryAt) {
        await database().delete(mailOutbox).where(eq(mailOutbox.id, id));
        return;
      }
      await database()
        .update(mailOutbox)
        .set({ attempts, nextAttemptAt: retryAt, lastError: error.slice(0, 1000), leaseUntil: null })
        .where(eq(mailOutbox.id, id));
    },

    async pending() {
      const [row] = await selectRows<{ n: number }>(database(), sql`select count(*)::int as n from ${mailOutbox}`);
      return Number(row?.n ?? 0);
    },
  };
}
