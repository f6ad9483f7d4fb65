import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** 'outbox' writes .eml files (development, tests); 'smtp' delivers. */
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

/** Where sent mail goes without SMTP_URL: one RFC 822 file per message. */
export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

const OUTBOX_TEMP_SUFFIX = '.eml.tmp';

/**
 * Removes outbox temp files (`.<name>.eml.tmp`) last written before `olderThan`: what a write
 * interrupted by a crash left. Returns how many were removed.
 */
export async function sweepOutboxTemps(dataDir: string, olderThan: Date): Promise<number> {
  const dir = outboxDir(dataDir);
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return 0; // no outbox yet
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith('.') || !name.endsWith(OUTBOX_TEMP_SUFFIX)) continue;
    const p = path.join(dir, name);
    const stat = await fs.promises.lstat(p).catch(() => undefined);
    if (!stat?.isFile() || stat.mtime >= olderThan) continue;
    await fs.promises.rm(p, { force: true });
    removed++;
  }
  return removed;
}

export interface MailLog {
  info(obj: object, msg: string): void;
}

/**
 * nodemailer behind a two-method interface. With SMTP_URL, an SMTP transport; otherwise a stream
 * transport whose raw message is written to `<dataDir>/outbox/<time>-<random>.eml` (written to a
 * temporary name, then renamed, so a reader never sees half a message).
 * Log lines name the message id and transport only: bodies hold reset links, and never are logged.
 */
export function createMailer(config: Pick<Config, 'dataDir' | 'smtpUrl' | 'mailFrom'>, log?: MailLog): Mailer {
  const defaults = { from: config.mailFrom };
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl, defaults);
    return {
      kind: 'smtp',
      async send(message) {
        const info = await transport.sendMail(message);
        log?.info({ messageId: info.messageId, transport: 'smtp' }, 'mail sent');
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }

  const dir = outboxDir(config.dataDir);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, defaults);
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail(message);
      await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
      // ISO 8601 basic format (no ':'), so the names are valid everywhere and sort by time.
      const stamp = new Date().toISOString().replace(/[-:]/g, '');
      const name = `${stamp}-${randomBytes(6).toString('hex')}.eml`;
      const tmp = path.join(dir, `.${name}${OUTBOX_TEMP_SUFFIX}`);
      try {
        await fs.promises.writeFile(tmp, info.message as Buffer, { mode: 0o600 });
        await fs.promises.rename(tmp, path.join(dir, name));
      } catch (err) {
        // A full disk leaves a 0-byte or partial temp file: never keep it.
        await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
        throw err;
      }
      log?.info({ messageId: info.messageId, transport: 'outbox', file: name }, 'mail written to the outbox');
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
