import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/*
 * An embedded (PGlite) database is open in exactly one process (adapters/lockfile.ts), so a backup
 * taken while the api runs must be taken BY the api. The api listens on a Unix socket in its
 * DATA_DIR (owner-only, like the rest of it); `npm run backup` asks there for a snapshot and the
 * api writes PGlite's dumpDataDir (consistent: no transaction half done) to the file named.
 * A socket rather than a signal: an api without this listener refuses the connection instead of
 * being killed by an unhandled signal, and only the data directory's owner can reach it.
 * The same socket carries the operator's commands for the same reason (`{ op: 'verify-doctor', doctor }`,
 * ops/verify-doctor.ts): the running api holds the database, so the api does the work.
 */

export const SNAPSHOT_SOCKET = 'backup.sock';

export interface SnapshotServer {
  close(): Promise<void>;
}

/** An operator command run by the api that holds the embedded database. */
export interface OperatorRequest {
  op: 'verify-doctor';
  /** The doctor's e-mail or account id. */
  doctor: string;
}

/** Serves snapshot requests of `dump` on `<dataDir>/backup.sock`; one request per connection. */
export async function serveSnapshots(
  dataDir: string,
  dump: () => Promise<Uint8Array>,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
  operator?: (request: OperatorRequest) => Promise<unknown>,
): Promise<SnapshotServer> {
  const socketPath = path.join(dataDir, SNAPSHOT_SOCKET);
  // A socket file left by a process that is gone (the lock file guarantees no other api runs here).
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((conn) => {
    let line = '';
    conn.setEncoding('utf8');
    conn.on('error', () => undefined);
    conn.on('data', (chunk: string) => {
      line += chunk;
      const end = line.indexOf('\n');
      if (end < 0) return;
      const request = line.slice(0, end);
      conn.pause();
      void answer(request).then((reply) => conn.end(`${reply}\n`));
    });
  });
  async function answer(request: string): Promise<string> {
    let out: string;
    try {
      const parsed = JSON.parse(request) as { out: string } | OperatorRequest;
      if ('op' in parsed) return await operatorAnswer(parsed);
      ({ out } = parsed);
      if (typeof out !== 'string' || !path.isAbsolute(out)) return JSON.stringify({ error: 'out must be an absolute path' });
    } catch {
      return JSON.stringify({ error: 'not a snapshot request' });
    }
    try {
      const bytes = await dump();
      const tmp = `${out}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, bytes, { mode: 0o600, flag: 'wx' });
      fs.renameSync(tmp, out);
      log.info({ out, bytes: bytes.length }, 'database snapshot written for a backup');
      return JSON.stringify({ ok: true, bytes: bytes.length });
    } catch (err) {
      log.error({ err }, 'database snapshot for a backup failed');
      return JSON.stringify({ error: (err as Error).message });
    }
  }
  async function operatorAnswer(request: OperatorRequest): Promise<string> {
    if (!operator || request.op !== 'verify-doctor' || typeof request.doctor !== 'string') {
      return JSON.stringify({ error: 'not an operator command this api knows' });
    }
    try {
      return JSON.stringify({ ok: true, result: await operator(request) });
    } catch (err) {
      log.error({ err, op: request.op }, 'operator command failed');
      return JSON.stringify({ error: (err as Error).message });
    }
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/** Asks the api running on `dataDir` to write a snapshot of its database to `out`. */
export function requestSnapshot(dataDir: string, out: string, timeoutMs = 30 * 60_000): Promise<number> {
  const socketPath = path.join(dataDir, SNAPSHOT_SOCKET);
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socketPath);
    let reply = '';
    conn.setEncoding('utf8');
    conn.setTimeout(timeoutMs, () => conn.destroy(new Error(`no snapshot from the running api within ${timeoutMs / 1000} s`)));
    conn.on('connect', () => conn.write(`${JSON.stringify({ out })}\n`));
    conn.on('data', (chunk: string) => (reply += chunk));
    conn.on('error', (err) =>
      reject(
        new Error(
          `The embedded database in ${dataDir} is in use by a running api, and its snapshot socket ${socketPath} ` +
            `does not answer (${err.message}). Stop the api and run the backup again.`,
        ),
      ),
    );
    conn.on('end', () => {
      try {
        const answer = JSON.parse(reply) as { ok?: boolean; bytes?: number; error?: string };
        if (answer.ok) resolve(answer.bytes ?? 0);
        else reject(new Error(`The running api could not take a snapshot: ${answer.error}`));
      } catch {
        reject(new Error(`Unexpected answer from the running api: ${reply.slice(0, 200)}`));
      }
    });
  });
}

/** Asks the api running on `dataDir` to run an operator command; answers its result. */
export function requestOperatorCommand(dataDir: string, request: OperatorRequest, timeoutMs = 60_000): Promise<unknown> {
  const socketPath = path.join(dataDir, SNAPSHOT_SOCKET);
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socketPath);
    let reply = '';
    conn.setEncoding('utf8');
    conn.setTimeout(timeoutMs, () => conn.destroy(new Error(`no answer from the running api within ${timeoutMs / 1000} s`)));
    conn.on('connect', () => conn.write(`${JSON.stringify(request)}\n`));
    conn.on('data', (chunk: string) => (reply += chunk));
    conn.on('error', (err) =>
      reject(
        new Error(
          `The embedded database in ${dataDir} is in use by a running api, and its operator socket ${socketPath} ` +
            `does not answer (${err.message}). Stop the api and run the command again.`,
        ),
      ),
    );
    conn.on('end', () => {
      try {
        const answer = JSON.parse(reply) as { ok?: boolean; result?: unknown; error?: string };
        if (answer.ok) resolve(answer.result);
        else reject(new Error(`The running api could not run ${request.op}: ${answer.error}`));
      } catch {
        reject(new Error(`Unexpected answer from the running api: ${reply.slice(0, 200)}`));
      }
    });
  });
}
