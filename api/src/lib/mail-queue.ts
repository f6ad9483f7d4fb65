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
 * so the request that asked for it still succeeds and the mail follows when the cause is gone.
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
    // Behind earlier ones: a queue that has not drained yet is not overtaken.
    if (this.queue.length === 0) {
      try {
        return await this.inner.send(message);
      } catch (err) {
        this.keep(message, err);
        return { messageId: '' };
      }
    }
    this.keep(message, undefined);
    return { messageId: '' };
  }

  private keep(message: MailMessage, err: unknown): void {
    this.queue.push({ message, attempts: err ? 1 : 0 });
    // Never the address or the body (it may hold a reset link).
    this.log.warn(
      { err, queued: this.queue.length, retryInMs: this.delayMs },
      'mail could not be sent: queued, tried again until it goes out',
    );
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.retryNow();
    }, this.delayMs);
    this.timer.unref();
  }

  /** Tries the queued messages now, oldest first, stopping at the first that still fails. */
  async retryNow(): Promise<void> {
    this.flushing ??= this.flush().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const next = this.queue[0];
      try {
        await this.inner.send(next.message);
      } catch (err) {
        next.attempts++;
        if (next.attempts >= MAIL_MAX_ATTEMPTS) {
          this.queue.shift();
          this.log.error({ err, attempts: next.attempts, queued: this.queue.length }, 'mail given up after its last try');
          continue;
        }
        this.delayMs = Math.min(this.delayMs * 2, MAIL_RETRY_MAX_MS);
        this.schedule();
        return;
      }
      this.queue.shift();
      this.log.info({ attempts: next.attempts + 1, queued: this.queue.length }, 'queued mail sent');
    }
    this.delayMs = MAIL_RETRY_FIRST_MS;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length > 0) this.log.error({ lost: this.queue.length }, 'mail still queued at shutdown is lost');
  }
}
