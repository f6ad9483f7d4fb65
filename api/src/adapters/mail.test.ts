import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { parseEml } from '../test/helpers';
import { createMailer, outboxDir } from './mail';

const FROM = 'CareLoop <no-reply@careloop.example>';
const BODY = 'Open https://web.example/patient/reset-password/abc/SECRET-TOKEN-123 within 30 minutes.';

describe('mail adapter', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-mail-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes each message as an .eml file into <DATA_DIR>/outbox, and logs no body', async () => {
    const logged: string[] = [];
    const mailer = createMailer({ dataDir: dir, mailFrom: FROM }, { info: (o, m) => logged.push(JSON.stringify([o, m])) });
    expect(mailer.kind).toBe('outbox');
    const { messageId } = await mailer.send({ to: 'pat@example.com', subject: 'Hello there', text: BODY });
    await mailer.send({ to: 'doc@example.com', subject: 'Second', text: 'two', html: '<p>two</p>' });
    mailer.close();

    const files = fs.readdirSync(outboxDir(dir)).sort();
    expect(files).toHaveLength(2); // no temporary files left behind
    for (const f of files) expect(f).toMatch(/^\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{12}\.eml$/);
    const file = path.join(
      outboxDir(dir),
      files.find((f) => fs.readFileSync(path.join(outboxDir(dir), f), 'utf8').includes('Hello there'))!,
    );
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const raw = fs.readFileSync(file, 'utf8');
    expect(raw).not.toContain('\r\n'); // newline: 'unix'
    const { headers, text } = parseEml(raw);
    expect(headers).toMatchObject({ from: FROM, to: 'pat@example.com', subject: 'Hello there', 'message-id': messageId });
    expect(text.trim()).toBe(BODY);

    expect(logged).toHaveLength(2);
    expect(logged.join('\n')).not.toMatch(/SECRET-TOKEN|reset-password|pat@example\.com/);
  });

  it('delivers through SMTP when SMTP_URL is set', async () => {
    const received: Array<{ raw: string; from: string; to: string[]; user?: string }> = [];
    const server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true, // plain connection on 127.0.0.1 in the test
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, cb) {
        cb(null, { user: auth.username });
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            raw: Buffer.concat(chunks).toString('utf8'),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
          });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    try {
      const logged: string[] = [];
      const mailer = createMailer(
        { dataDir: dir, mailFrom: FROM, smtpUrl: `smtp://mailuser:mailpass@127.0.0.1:${port}` },
        { info: (o, m) => logged.push(JSON.stringify([o, m])) },
      );
      expect(mailer.kind).toBe('smtp');
      const { messageId } = await mailer.send({ to: 'pat@example.com', subject: 'Reset your CareLoop password', text: BODY });
      mailer.close();

      expect(received).toHaveLength(1);
      const [msg] = received;
      expect(msg.user).toBe('mailuser');
      expect(msg.from).toBe('no-reply@careloop.example');
      expect(msg.to).toEqual(['pat@example.com']);
      const { headers, text } = parseEml(msg.raw.replace(/\r\n/g, '\n'));
      expect(headers).toMatchObject({ subject: 'Reset your CareLoop password', to: 'pat@example.com', 'message-id': messageId });
      expect(text.trim()).toBe(BODY);
      expect(fs.existsSync(outboxDir(dir))).toBe(false); // nothing written locally
      expect(logged.join('\n')).not.toContain('SECRET-TOKEN');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('rejects when the SMTP server is unreachable (the caller decides what to do)', async () => {
    const mailer = createMailer({ dataDir: dir, mailFrom: FROM, smtpUrl: 'smtp://127.0.0.1:1' });
    await expect(mailer.send({ to: 'x@example.com', subject: 's', text: 't' })).rejects.toThrow();
    mailer.close();
  });
});
