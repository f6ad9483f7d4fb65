import type { MailMessage, Mailer } from '../adapters/mail';

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

/**
 * The app's mail (verification, reset, notices): a message whose sending fails (the outbox folder
 * full or unwritable, the SMTP server away) is kept and tried again with backoff until it goes out,
 * so the request that asked for it still succeeds and the mail follows when the cause is gone
 * (sooner when another message goes out meanwhile).
 * Kept in this process's memory: the embedded database shares the full disk, so it could not take
 * the message either. What is still queued at close is logged at error (it is lost).
 * Reminder e-mails do not pass here: their runner counts its own attempts in the database.
 */
export class MailQueue implements Mailer {
  readonly kind: Mailer['kind'];
  private readonly queue: { message: MailMessage; attempts: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private delayMs = MAIL_RETRY_FIRST_MS;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly inner: Mailer,
    private readonly log: MailQueueLog,
  ) {
    this.kind = inner.kind;
  }

  /** Messages waiting to be sent again. */
  get pending(): number {
    return this.queue.length;
  }

  async send(message: MailMessage): Promise<{ messageId: string }> {
    try {
      const sent = await this.inner.send(message);
      // It works again: what waits goes out now rather than at its next try.
      if (this.queue.length > 0) void this.retryNow();
      return sent;
    } catch (err) {
      this.queue.push({ message, attempts: 1 });
      // Never the address or the body (it may hold a reset link).
      this.log.warn(
        { err, queued: this.queue.length, retryInMs: this.delayMs },
        'mail could not be sent: queued, tried again until it goes out',
      );
      this.schedule();
      return { messageId: '' };
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

  /** Tries each queued message now, oldest first; those that still fail wait for the next round. */
  async retryNow(): Promise<void> {
    this.flushing ??= this.flush().finally(() => (this.flushing = undefined));
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
    if (this.queue.length > 0) {
      this.delayMs = Math.min(this.delayMs * 2, MAIL_RETRY_MAX_MS);
      this.schedule();
    } else {
      this.delayMs = MAIL_RETRY_FIRST_MS;
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length > 0) this.log.error({ lost: this.queue.length }, 'mail still queued at shutdown is lost');
  }
}
