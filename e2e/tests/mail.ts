import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Quoted-printable, as nodemailer may encode a long text line. */
const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** Subjects of the api's mails (api/src/modules/*: messages and notices). */
export const VERIFY_SUBJECT = 'Verify your CareLoop e-mail address';
export const RESET_SUBJECT = 'Reset your CareLoop password';

/**
 * The newest .eml in the api's outbox addressed to `to` with `subject`, decoded. The subject is
 * required: one address gets several mails (verification, notices, resets) within a moment.
 */
export async function waitForEmail(to: string, subject: string, timeoutMs = 10_000): Promise<string> {
  const outbox = join(process.env.CARELOOP_E2E_DATA_DIR!, 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = (() => {
      try {
        return readdirSync(outbox)
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .reverse();
      } catch {
        return [];
      }
    })();
    for (const file of files) {
      const raw = readFileSync(join(outbox, file), 'utf8');
      if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw)) continue;
      if (raw.includes(`\nSubject: ${subject}`)) return decodeQuotedPrintable(raw);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no e-mail "${subject}" to ${to} in ${outbox}`);
}
