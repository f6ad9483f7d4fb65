import type { MailMessage, Mailer } from './mail';
import type { MailOutbox } from './mail-outbox';

export interface MailQueueLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** First retry after this; each next one waits twice as long, up to MAIL_RETRY_MAX_MS. */
export const MAIL_RETRY_FIRST_MS = 5_000;
export const MAIL_RETRY_MAX_MS = 5 * 60_000;
/** A message still not sent after this many tries (about a day at the longest wait) is given up, at error. */
export const MAIL_MAX_ATTEMPTS = 300;

/** How many database rows one round claims. */
const OUTBOX_BATCH = 50;

const errorText = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

/**
 * The app's mail (verification, reset, notices): a message whose sending fails (the outbox folder
 * full or unwritable, the SMTP server away) is kept and tried again with backoff until it goes out,
 * so the request that asked for it still succeeds and the mail follows when the cause is gone
 * (sooner when another message goes out meanwhile).
 * Kept in the database (`outbox`, sealed: it may hold a reset link), so a restart or another
 * replica sends it; only when the database cannot take it either (the embedded database on the
 * same full disk) is it kept in this process's memory, and what is still there at close is logged
 * at error (it is lost). Notifications put their e-mail in the outbox themselves, in the transaction
 * of what they tell of (adapters/mail-outbox.ts enqueueMail), and ask for a round after the commit.
 * Reminder e-mails do not pass here: their runner counts its own attempts.
 */
export class MailQueue implements Mailer {
  readonly kind: Mailer['kind'];
  private readonly queue: { message: MailMessage; attempts: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private delayMs = MAIL_RETRY_FIRST_MS;
  private flushing: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly inner: Mailer,
    private readonly log: MailQueueLog,
    private readonly outbox?: MailOutbox,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.kind = inner.kind;
  }

  /** Messages waiting in this process's memory (the database could not take them). */
  get pending(): number {
    return this.queue.length;
  }

  /** Sends what an earlier run (or a replica that stopped) left in the database. */
  start(): void {
    if (this.outbox) void this.retryNow();
  }

  async send(message: MailMessage): Promise<{ messageId: string }> {
    try {
      const sent = await this.inner.send(message);
      // It works again: what waits goes out now rather than at its next try.
      if (this.queue.length > 0) void this.retryNow();
      return sent;
    } catch (err) {
      // Never the address or the body (it may hold a reset link).
      if (await this.save(message, err)) {
        this.log.warn(
          { err, retryInMs: this.delayMs },
          'mail could not be sent: kept in the database, tried again until it goes out',
        );
      } else {
        this.queue.push({ message, attempts: 1 });
        this.log.warn(
          { err, queued: this.queue.length, retryInMs: this.delayMs },
          'mail could not be sent: queued in memory, tried again until it goes out',
        );
      }
      this.schedule();
      return { messageId: '' };
    }
  }

  private async save(message: MailMessage, err: unknown): Promise<boolean> {
    if (!this.outbox) return false;
    const now = this.now();
    try {
      await this.outbox.save(message, now, new Date(now.getTime() + this.delayMs), errorText(err));
      return true;
    } catch (dbErr) {
      this.log.warn({ err: dbErr }, 'the database could not keep the mail either');
      return false;
    }
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.retryNow();
    }, this.delayMs);
    this.timer.unref();
  }

  /**
   * Tries each queued message now, oldest first; those that still fail wait for the next round.
   * Asked while a round runs, another round follows it (a row put in the outbox meanwhile, e.g. a
   * notification's, may have come after this round's claim); the promise settles after both.
   */
  async retryNow(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      do {
        this.again = false;
        await this.flush();
      } while (this.again && !this.closed);
    })().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async flush(): Promise<void> {
    // Each message once per round: one that keeps failing (a refused address) holds up no other.
    for (const entry of [...this.queue]) {
      try {
        await this.inner.send(entry.message);
      } catch (err) {
        entry.attempts++;
        if (entry.attempts >= MAIL_MAX_ATTEMPTS) {
          this.queue.splice(this.queue.indexOf(entry), 1);
          this.log.error({ err, attempts: entry.attempts, queued: this.queue.length }, 'mail given up after its last try');
        }
        continue;
      }
      this.queue.splice(this.queue.indexOf(entry), 1);
      this.log.info({ attempts: entry.attempts + 1, queued: this.queue.length }, 'queued mail sent');
    }
    const waiting = await this.flushOutbox();
    if (this.queue.length > 0 || waiting) {
      this.delayMs = Math.min(this.delayMs * 2, MAIL_RETRY_MAX_MS);
      this.schedule();
    } else {
      this.delayMs = MAIL_RETRY_FIRST_MS;
    }
  }

  /** One round over the database's due rows; true while rows wait there. */
  private async flushOutbox(): Promise<boolean> {
    if (!this.outbox) return false;
    try {
      const now = this.now();
      for (const entry of await this.outbox.claimDue(now, OUTBOX_BATCH)) {
        if (!entry.message) {
          await this.outbox.failed(entry.id, entry.attempts, null, 'sealed with another key');
          this.log.error({ id: entry.id }, 'kept mail cannot be opened with this encryption key: given up');
          continue;
        }
        try {
          await this.inner.send(entry.message);
        } catch (err) {
          const attempts = entry.attempts + 1;
          const givenUp = attempts >= MAIL_MAX_ATTEMPTS;
          await this.outbox.failed(entry.id, attempts, givenUp ? null : new Date(now.getTime() + this.delayMs), errorText(err));
          if (givenUp) this.log.error({ err, attempts }, 'mail given up after its last try');
          continue;
        }
        await this.outbox.sent(entry.id);
        this.log.info({ attempts: entry.attempts + 1 }, 'kept mail sent');
      }
      return (await this.outbox.pending()) > 0;
    } catch (err) {
      this.log.warn({ err }, 'kept mail could not be read or updated; tried again later');
      return true;
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length > 0) this.log.error({ lost: this.queue.length }, 'mail still queued at shutdown is lost');
  }
}
