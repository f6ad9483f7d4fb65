import { Worker } from 'node:worker_threads';

/*
 * PGlite runs its PostgreSQL (WebAssembly) synchronously: in the api's own thread every query
 * stalls the event loop that serves requests. Here it lives in a worker thread owned by the api
 * process (so the single-process lock in db.ts still holds), and the main thread talks to it by
 * messages. The class below looks to drizzle's pglite driver like a PGlite client (query, exec,
 * transaction), so the app's queries, migrations and pg-boss keep the same code paths.
 */

// CommonJS run with `eval: true`: the same source works from dist/ and under Jest (whose module
// system a worker does not share). PGlite's path comes from the main thread's resolution.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite, protocol, parse } = require(workerData.pglitePath);
let client;
const identity = (value) => value;
const S = protocol.serialize;

// PGlite's query() parses and plans its text on every call (an unnamed statement): planning a
// profile read costs more than running it. A statement with parameters is parsed ONCE here, as a
// named statement, and then only bound and executed, in one protocol message: the same rows, types
// and errors (the result is parsed by PGlite's own parseResults), about 5x less work per read.
// sql text -> { name, types }, oldest first; past MAX_STATEMENTS the oldest is closed.
const statements = new Map();
const MAX_STATEMENTS = 500;
let statementCount = 0;
function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
// PGlite's protocol calls are not queued by it (unlike query): every one runs in its mutex.
const protocolCall = (message) => client.runExclusive(() => client.execProtocol(message, { syncToFs: false }));
async function statementFor(sql) {
  const known = statements.get(sql);
  if (known) return known;
  const name = 'careloop_' + ++statementCount;
  const { messages } = await protocolCall(concat([S.parse({ name, text: sql }), S.describe({ type: 'S', name }), S.sync()]));
  const statement = { name, types: parse.parseDescribeStatementResults(messages) };
  statements.set(sql, statement);
  if (statements.size > MAX_STATEMENTS) {
    const [oldestSql, oldest] = statements.entries().next().value;
    statements.delete(oldestSql);
    await protocolCall(concat([S.close({ type: 'S', name: oldest.name }), S.sync()]));
  }
  return statement;
}
async function runNamed(sql, params, options) {
  const { name, types } = await statementFor(sql);
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serialize = client.serializers[types[i]];
    return serialize ? serialize(value) : value.toString();
  });
  const { messages } = await protocolCall(
    concat([S.bind({ statement: name, values }), S.describe({ type: 'P' }), S.execute({}), S.sync()]),
  );
  await client.syncToFs();
  return parse.parseResults(messages, client.parsers, options)[0];
}
async function query(msg) {
  const parsers = {};
  for (const oid of msg.rawTypes) parsers[oid] = identity;
  const options = { rowMode: msg.rowMode, parsers };
  // Parameterless text (migrations' DDL, one-off statements) is not kept.
  if (msg.params.length === 0) return client.query(msg.sql, msg.params, options);
  try {
    return await runNamed(msg.sql, msg.params, options);
  } catch (err) {
    // A statement planned before a schema change whose result it changes: parsed again, once.
    if (!(err && err.code === '0A000' && statements.has(msg.sql))) throw err;
    statements.delete(msg.sql);
    return runNamed(msg.sql, msg.params, options);
  }
}
function serializeError(err) {
  const out = { message: err && err.message ? String(err.message) : String(err), name: err && err.name ? String(err.name) : 'Error' };
  if (err && typeof err === 'object') {
    for (const [key, value] of Object.entries(err)) {
      if (typeof value === 'string' || typeof value === 'number') out[key] = value;
    }
  }
  return out;
}
async function handle(msg) {
  switch (msg.op) {
    case 'open':
      client = await PGlite.create(msg.dataDir);
      return null;
    case 'query': {
      const r = await query(msg);
      return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows };
    }
    case 'exec':
      return (await client.exec(msg.sql)).map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
    case 'dump': {
      // A checkpoint first: the copy then needs little WAL replay when it is opened.
      await client.exec('CHECKPOINT');
      const blob = await client.dumpDataDir('gzip');
      return new Uint8Array(await blob.arrayBuffer());
    }
    case 'close':
      await client.close();
      return null;
    default:
      throw new Error('unknown op ' + msg.op);
  }
}
parentPort.on('message', (msg) => {
  handle(msg).then(
    (result) => parentPort.postMessage({ id: msg.id, ok: true, result }),
    (err) => parentPort.postMessage({ id: msg.id, ok: false, error: serializeError(err) }),
  );
});
`;

export interface QueryResult {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are whatever shape the caller's SQL returns
  rows: any[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

/** drizzle passes parsers that keep date/time and numeric-array values as text; only their type ids cross over. */
interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

type Request =
  | { op: 'open'; dataDir: string }
  | { op: 'query'; sql: string; params: unknown[]; rowMode?: 'array' | 'object'; rawTypes: number[] }
  | { op: 'exec'; sql: string }
  | { op: 'dump' }
  | { op: 'close' };

/** What a transaction callback gets: statements go straight to the worker, inside the held turn. */
export interface PgliteWorkerTx {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult>;
  exec(sql: string): Promise<QueryResult[]>;
}

/** Rebuilds a PostgreSQL error with its fields (code, constraint, …): the api maps e.g. 23505 to a 409. */
function toError(fields: Record<string, unknown>): Error {
  const err = new Error(String(fields.message));
  Object.assign(err, fields);
  return err;
}

export class PgliteWorker {
  private readonly worker: Worker;
  private readonly replies = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 1;
  /**
   * Statements outside a transaction are posted at once: the worker runs them in arrival order,
   * so it never idles waiting for this thread to send the next one. A transaction holds the one
   * connection from BEGIN to COMMIT/ROLLBACK, so transactions take turns (FIFO, `turn`), and a
   * statement asked for while one is waiting or open waits for the turns asked for before it —
   * then it is posted at once, with every other statement that waited for the same turn. (One
   * by one, each a round trip to this busy thread, they drained slower than they arrived: every
   * reminder sweep's transaction left requests waiting seconds.)
   */
  private turn: Promise<unknown> = Promise.resolve();
  private transactions = 0;
  private queued = 0;
  private readonly posted = new Set<Promise<unknown>>();
  private failure: Error | undefined;
  private exited = false;

  private constructor(pglitePath: string) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pglitePath } });
    this.worker.on('message', (msg: { id: number; ok: boolean; result?: unknown; error?: Record<string, unknown> }) => {
      const reply = this.replies.get(msg.id);
      if (!reply) return;
      this.replies.delete(msg.id);
      if (msg.ok) reply.resolve(msg.result);
      else reply.reject(toError(msg.error ?? { message: 'PGlite worker error' }));
    });
    const fail = (err: Error) => {
      // Class 08 (connection failure): the api answers 503 (lib/errors.ts), not 500.
      this.failure ??= Object.assign(new Error(`PGlite worker stopped: ${err.message}`), { code: '08006' });
      for (const reply of this.replies.values()) reply.reject(this.failure);
      this.replies.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => {
      this.exited = true;
      fail(new Error(`exit code ${code}`));
    });
  }

  /** Starts the worker and opens (or creates) the database in `dataDir`. */
  static async open(dataDir: string): Promise<PgliteWorker> {
    const client = new PgliteWorker(require.resolve('@electric-sql/pglite'));
    try {
      await client.send({ op: 'open', dataDir });
    } catch (err) {
      await client.worker.terminate();
      throw err;
    }
    return client;
  }

  /** Operations waiting for the database or running in it: the api's queue depth (DB_MAX_QUEUE). */
  get queueDepth(): number {
    return this.queued;
  }

  /** Operations handed to the worker and not yet answered (the rest of queueDepth waits for a turn). */
  get inFlight(): number {
    return this.posted.size;
  }

  query(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<QueryResult> {
    return this.outsideTransaction(() => this.sendQuery(sql, params, options));
  }

  exec(sql: string): Promise<QueryResult[]> {
    return this.outsideTransaction(() => this.send({ op: 'exec', sql }) as Promise<QueryResult[]>);
  }

  /** No other statement runs between BEGIN and COMMIT/ROLLBACK: PGlite has one connection. */
  transaction<T>(callback: (tx: PgliteWorkerTx) => Promise<T>): Promise<T> {
    this.transactions++;
    const held = this.inTurn(async () => {
      await this.send({ op: 'exec', sql: 'BEGIN' });
      const tx: PgliteWorkerTx = {
        query: (sql, params = [], options = {}) => this.sendQuery(sql, params, options),
        exec: (sql) => this.send({ op: 'exec', sql }) as Promise<QueryResult[]>,
      };
      let result: T;
      try {
        result = await callback(tx);
      } catch (err) {
        await this.send({ op: 'exec', sql: 'ROLLBACK' }).catch(() => undefined);
        throw err;
      }
      await this.send({ op: 'exec', sql: 'COMMIT' });
      return result;
    });
    return held.finally(() => {
      this.transactions--;
    });
  }

  /**
   * A consistent copy of the whole database (a gzipped tar of its data directory, PGlite's
   * dumpDataDir) taken while it stays open: every operation posted before waits to finish, every
   * one after queues behind the dump, so no transaction is half done in it.
   */
  async dumpDataDir(): Promise<Uint8Array> {
    this.transactions++; // routes new operations through inTurn, behind the dump
    try {
      return await this.inTurn(async () => {
        await Promise.allSettled([...this.posted]);
        return (await this.send({ op: 'dump' })) as Uint8Array;
      });
    } finally {
      this.transactions--;
    }
  }

  /** Waits for the queued operations, closes PGlite (flushing its files), then stops the worker. */
  async close(): Promise<void> {
    try {
      if (!this.exited) {
        await Promise.allSettled([...this.posted]);
        await this.inTurn(() => this.send({ op: 'close' }));
      }
    } finally {
      await this.worker.terminate();
    }
  }

  /** Posted at once when no transaction is waiting or open; else once the turns asked for before it are over. */
  private outsideTransaction<T>(operation: () => Promise<T>): Promise<T> {
    this.queued++;
    const post = () => {
      const run = operation();
      this.posted.add(run);
      const done = () => this.posted.delete(run);
      run.then(done, done);
      return run;
    };
    // Not chained into `turn`: statements released by the same turn go out together.
    const run = this.transactions > 0 ? this.turn.then(post) : post();
    return run.finally(() => {
      this.queued--;
    });
  }

  private inTurn<T>(operation: () => Promise<T>): Promise<T> {
    this.queued++;
    const run = this.turn.then(operation);
    this.turn = run.catch(() => undefined);
    return run.finally(() => {
      this.queued--;
    });
  }

  private sendQuery(sql: string, params: unknown[], options: QueryOptions): Promise<QueryResult> {
    const rawTypes = Object.keys(options.parsers ?? {}).map(Number);
    return this.send({ op: 'query', sql, params, rowMode: options.rowMode, rawTypes }) as Promise<QueryResult>;
  }

  private send(request: Request): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.replies.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }
}
