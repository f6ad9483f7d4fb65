import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describeFaults, expectHttp, killAll, signupVia, sleep, startApi, tempDir } from '../test/faults-kit';

/*
 * Bounded shutdown (FAULTS.md). A real api process holds a stalled upload (headers and the start
 * of a PDF, then nothing) and an idle kept-alive connection when it gets SIGTERM. It must wait
 * for SHUTDOWN_GRACE_SECONDS, answer the upload 503, cut it, remove its temp file, close the
 * database cleanly and exit 0 — well before a container runtime's SIGKILL.
 */

const GRACE_SECONDS = 3;
// Generous: the grace period, then the cut, the reminder runner's stop and PGlite's close.
const EXIT_WITHIN_MS = (GRACE_SECONDS + 4) * 1000;

/** A raw HTTP/1.1 connection: what it received, and whether the server closed it. */
function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (d) => (received += String(d)));
  socket.on('error', () => undefined); // a reset is a close as far as this test is concerned
  const gone = new Promise<void>((resolve) => socket.once('close', () => ((closed = true), resolve())));
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, connected, gone, received: () => received, closed: () => closed };
}

async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** True once the port refuses new connections (the api has stopped accepting). */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', () => resolve(true));
  });
}

describeFaults('fault: SIGTERM with a stalled upload and a kept-alive connection', { postgres: false }, () => {
  afterAll(killAll);

  it('answers the upload 503 at the deadline, removes its temp file and exits 0 within the grace period + 4 s', async () => {
    const dataDir = tempDir('fault-shutdown');
    const api = await startApi({ DATA_DIR: dataDir, SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) });
    const patient = await signupVia(api.url, 'patient');
    const { uploadUrl, key } = await expectHttp(
      api.url,
      'GET',
      `/medical-record/${patient.id}?fileType=application%2Fpdf&fileName=stalled.pdf`,
      200,
      { token: patient.token },
    );
    const { pathname, search } = new URL(uploadUrl);
    const tmpDir = path.join(dataDir, 'files', '.tmp');
    const partFiles = () => (fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).filter((f) => f.endsWith('.part')) : []);
    expect(partFiles()).toEqual([]);

    // The stalled upload: 100 kB announced, a few bytes of PDF sent, then silence.
    const upload = rawConnection(api.port);
    await upload.connected;
    upload.socket.write(
      `PUT ${pathname}${search} HTTP/1.1\r\nHost: 127.0.0.1:${api.port}\r\nContent-Type: application/pdf\r\n` +
        'Content-Length: 100000\r\n\r\n%PDF-1.4\n% stalled',
    );
    await until('the upload temp file', () => partFiles().length === 1);

    // The kept-alive connection: one answered request, then idle.
    const idle = rawConnection(api.port);
    await idle.connected;
    idle.socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${api.port}\r\nConnection: keep-alive\r\n\r\n`);
    await until('the kept-alive answer', () => /\r\n\r\n\{.*\}/s.test(idle.received()));
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(idle.received()).not.toMatch(/^connection: close/im);
    expect(idle.closed()).toBe(false);

    const signalled = Date.now();
    api.child.kill('SIGTERM');
    const outcome = await Promise.race([api.exited, sleep(EXIT_WITHIN_MS).then(() => 'still running')]);
    const tookMs = Date.now() - signalled;
    console.log(`shutdown with a stalled upload took ${tookMs} ms (SHUTDOWN_GRACE_SECONDS=${GRACE_SECONDS})`);
    expect({ outcome, output: outcome === 0 ? '' : api.output() }).toEqual({ outcome: 0, output: '' });
    // The stalled upload was given its grace period (timers never fire early) before it was cut.
    expect(tookMs).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 100);

    await Promise.all([upload.gone, idle.gone]);
    // The upload was answered before its connection was cut: 503 with the api's JSON error.
    expect(upload.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(upload.received()).toMatch(/^connection: close/im);
    const body = JSON.parse(upload.received().slice(upload.received().indexOf('\r\n\r\n') + 4));
    expect(typeof body.error).toBe('string');
    // Nothing of the upload is left: no temp file, no stored file.
    expect(partFiles()).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'files', key))).toBe(false);
    // PGlite was closed cleanly (its lock file is removed on close).
    expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  }, 120_000);

  it('lets an upload in flight at SIGTERM finish, answers it with Connection: close and exits 0 without waiting for the deadline', async () => {
    const dataDir = tempDir('fault-shutdown-finish');
    // A long grace period: exiting well within it shows nothing waited for it.
    const api = await startApi({ DATA_DIR: dataDir, SHUTDOWN_GRACE_SECONDS: '30' });
    const patient = await signupVia(api.url, 'patient');
    const { uploadUrl, key } = await expectHttp(
      api.url,
      'GET',
      `/medical-record/${patient.id}?fileType=application%2Fpdf&fileName=slow.pdf`,
      200,
      { token: patient.token },
    );
    const { pathname, search } = new URL(uploadUrl);
    const tmpDir = path.join(dataDir, 'files', '.tmp');
    const partFiles = () => (fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).filter((f) => f.endsWith('.part')) : []);
    const pdf = Buffer.from('%PDF-1.4\n% a slow but complete upload\n%%EOF\n');
    const upload = rawConnection(api.port);
    await upload.connected;
    upload.socket.write(
      `PUT ${pathname}${search} HTTP/1.1\r\nHost: 127.0.0.1:${api.port}\r\nContent-Type: application/pdf\r\n` +
        `Connection: keep-alive\r\nContent-Length: ${pdf.length}\r\n\r\n`,
    );
    upload.socket.write(pdf.subarray(0, 10));
    await until('the upload temp file', () => partFiles().length === 1);

    const signalled = Date.now();
    api.child.kill('SIGTERM');
    // Shutdown has begun once new connections are refused; only then does the upload go on.
    for (let i = 0; !(await refuses(api.port)); i++) {
      if (i > 200) throw new Error('the api kept accepting connections after SIGTERM');
      await sleep(50);
    }
    upload.socket.write(pdf.subarray(10));
    const outcome = await Promise.race([api.exited, sleep(12_000).then(() => 'still running')]);
    const tookMs = Date.now() - signalled;
    console.log(`shutdown with an upload finishing took ${tookMs} ms (SHUTDOWN_GRACE_SECONDS=30)`);
    expect({ outcome, output: outcome === 0 ? '' : api.output() }).toEqual({ outcome: 0, output: '' });
    await upload.gone;
    expect(upload.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(upload.received()).toMatch(/^connection: close/im);
    expect(fs.readFileSync(path.join(dataDir, 'files', key))).toEqual(pdf);
    expect(partFiles()).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  }, 120_000);
});
