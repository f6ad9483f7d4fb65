import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { recordBody } from '../test/clinical';
import { PDF } from '../test/files';
import {
  connectVia,
  describeFaults,
  expectHttp,
  FAULT_TESTS,
  http as call,
  killAll,
  signupVia,
  sleep,
  startApi,
  type ApiProcess,
} from '../test/faults-kit';

/*
 * A real api process (PGlite, the embedded default) whose DATA_DIR is a small tmpfs of its own,
 * filled to the last byte with a filler file, then freed (FAULTS.md "Disk full → 507"). Needs the
 * right to mount a tmpfs (root, or CAP_SYS_ADMIN); otherwise the suite shows why it was skipped.
 */

const STORAGE_FULL = { error: 'Storage is full; nothing was saved' };
const HOUR_AND_A_BIT_AGO = new Date(Date.now() - 2 * 3_600_000);

function mountSmallDisk(): { dir?: string; reason?: string } {
  if (!FAULT_TESTS) return {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-disk-full-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=128m,mode=0700', 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status === 0) return { dir };
  fs.rmdirSync(dir);
  return { reason: `cannot mount a tmpfs here (${(mounted.stderr || mounted.error?.message || '').trim()})` };
}
const disk = mountSmallDisk();

/** One request on the given agent, reporting whether it went over a connection already used. */
function request(
  agent: http.Agent,
  base: string,
  method: string,
  url: string,
  opts: { body?: Buffer; contentType?: string; token?: string } = {},
): Promise<{ status: number; body: any; reused: boolean; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      base + url,
      {
        agent,
        method,
        headers: {
          ...(opts.body ? { 'content-type': opts.contentType ?? 'application/json', 'content-length': opts.body.length } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
        timeout: 20_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode!,
            body: text ? JSON.parse(text) : undefined,
            reused: req.reusedSocket,
            connection: res.headers.connection,
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within 20 s`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile())
    : [];

if (disk.reason) {
  describe('disk full on the embedded default', () => it.todo(`skipped: ${disk.reason}`));
} else {
  describeFaults('disk full on the embedded default (PGlite, local files, outbox)', { postgres: false }, () => {
    let api: ApiProcess | undefined;
    const dataDir = path.join(disk.dir ?? '', 'data');
    const filler = path.join(disk.dir ?? '', 'filler');
    const fill = () => spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k'], { stdio: 'ignore' });

    afterAll(async () => {
      await killAll();
      if (disk.dir) {
        spawnSync('umount', [disk.dir]);
        fs.rmSync(disk.dir, { recursive: true, force: true });
      }
    });

    it('answers 507 and writes nothing while full, keeps the connection, is unready, and recovers when space returns', async () => {
      // Left by a crash before this start: swept at start-up.
      const stalePart = path.join(dataDir, 'files', '.tmp', 'left-by-a-crash.part');
      const staleMail = path.join(dataDir, 'outbox', '.20250101T000000000Z-aaaa.eml.tmp');
      for (const p of [stalePart, staleMail]) {
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, 'half');
        fs.utimesSync(p, HOUR_AND_A_BIT_AGO, HOUR_AND_A_BIT_AGO);
      }
      api = await startApi({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
      for (let i = 0; i < 100 && (fs.existsSync(stalePart) || fs.existsSync(staleMail)); i++) await sleep(100);
      expect([fs.existsSync(stalePart), fs.existsSync(staleMail)]).toEqual([false, false]);
      expect(api.output()).toContain('orphan sweep removed files');

      const patient = await signupVia(api.url, 'patient');
      const doctor = await signupVia(api.url, 'doctor');
      await connectVia(api.url, api.url, doctor, patient);
      const { uploadUrl } = await expectHttp(
        api.url,
        'GET',
        `/medical-record/${patient.id}?fileType=application%2Fpdf&fileName=scan.pdf`,
        200,
        {
          token: patient.token,
        },
      );
      const uploadPath = new URL(uploadUrl).pathname + new URL(uploadUrl).search;
      // Bigger than any buffer on the way: most of it is still unread when the write fails.
      const bigPdf = Buffer.concat([PDF, Buffer.alloc(512 * 1024, 0x20)]);
      const patientFiles = path.join(dataDir, 'files', patient.id);
      const acknowledged: string[] = [];
      const refused: string[] = [];
      const writeRecord = async (agent: http.Agent, title: string) => {
        const res = await request(agent, api!.url, 'POST', `/medicalhistory/${patient.id}`, {
          token: doctor.token,
          body: Buffer.from(JSON.stringify(recordBody({ title, allergies: 'x'.repeat(900) }))),
        });
        if (res.status === 201) acknowledged.push(title);
        else refused.push(title);
        return res;
      };

      fill();
      expect(fs.statfsSync(disk.dir!).bavail).toBe(0);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const upload = await request(agent, api.url, 'PUT', uploadPath, { body: bigPdf, contentType: 'application/pdf' });
        expect([upload.status, upload.body]).toEqual([507, STORAGE_FULL]);
        expect(filesUnder(patientFiles)).toEqual([]);
        expect(filesUnder(path.join(dataDir, 'files', '.tmp'))).toEqual([]);
        // The same kept-alive connection takes the next request at once.
        const live = await request(agent, api.url, 'GET', '/health/live');
        expect([live.status, live.reused]).toEqual([200, true]);
        const ready = await request(agent, api.url, 'GET', '/health/ready');
        expect([ready.status, ready.body]).toEqual([503, { status: 'unavailable' }]);
        expect((await request(agent, api.url, 'GET', '/health')).status).toBe(503);

        // Record writes: each either stored (it fit in pages the database already had) or 507,
        // never a 500; a full disk is reached within these.
        for (let i = 0; i < 60 && refused.length < 3; i++) {
          const res = await writeRecord(agent, `while full ${i}`);
          if (res.status !== 201) expect([res.status, res.body]).toEqual([507, STORAGE_FULL]);
        }
        expect(refused.length).toBeGreaterThan(0);
        const after = await request(agent, api.url, 'GET', '/health/live');
        expect([after.status, after.reused]).toEqual([200, true]);
        // A login (it writes a session): 200 or 507, never 500.
        const login = await request(agent, api.url, 'POST', '/patient/login', {
          body: Buffer.from(JSON.stringify({ email: patient.email, password: 'correct horse battery' })),
        });
        expect([200, 507]).toContain(login.status);
        if (login.status === 507) expect(login.body).toEqual(STORAGE_FULL);
      } finally {
        agent.destroy();
      }
      // A signup while full: the account is made or refused whole; when made, its mail follows later.
      const late = `late.${process.pid}@example.com`;
      const signup = await call(api.url, 'POST', '/patient/signup', {
        body: { name: 'Late Patient', email: late, password: 'correct horse battery' },
      });
      expect([201, 507]).toContain(signup.status);
      expect(api.alive()).toBe(true);

      fs.rmSync(filler);
      let ready = await call(api.url, 'GET', '/health/ready');
      for (let i = 0; i < 50 && ready.status !== 200; i++) {
        await sleep(200);
        ready = await call(api.url, 'GET', '/health/ready');
      }
      expect(ready.status).toBe(200);
      // The same upload URL now stores the file; it is listed.
      const stored = await fetch(api.url + uploadPath, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: bigPdf,
      });
      expect(stored.status).toBe(200);
      expect(filesUnder(patientFiles)).toHaveLength(1);
      const list = await expectHttp(api.url, 'GET', '/medical-record', 200, { token: patient.token });
      expect(list.fileName).toEqual(['scan.pdf']);
      // Every acknowledged record is there, and none of the refused ones.
      const agent2 = new http.Agent({ keepAlive: true });
      try {
        expect((await writeRecord(agent2, 'after space returned')).status).toBe(201);
      } finally {
        agent2.destroy();
      }
      const records = await expectHttp(api.url, 'GET', `/medicalhistories?patientId=${patient.id}&limit=100`, 200, {
        token: doctor.token,
      });
      const titles = new Set<string>((records.items ?? records).map((r: { title: string }) => r.title));
      for (const title of acknowledged) expect(titles.has(title)).toBe(true);
      for (const title of refused) expect(titles.has(title)).toBe(false);
      // The signup's verification mail, queued while full, is written once there is room.
      if (signup.status === 201) {
        const outbox = path.join(dataDir, 'outbox');
        const hasMail = () =>
          fs
            .readdirSync(outbox)
            .some((f) => f.endsWith('.eml') && fs.readFileSync(path.join(outbox, f), 'utf8').includes(`To: ${late}`));
        for (let i = 0; i < 600 && !hasMail(); i++) await sleep(100);
        expect(hasMail()).toBe(true);
      }
      expect(fs.readdirSync(path.join(dataDir, 'outbox')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      expect(await api.kill('SIGTERM')).toBe(0);
    }, 180_000);
  });
}
