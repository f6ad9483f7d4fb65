import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createTestApp, createTestDb, signup, uniqueEmail, PASSWORD, type TestApp, type TestDb } from '../test/helpers';

// Redis is optional: a Redis that stops answering (SIGSTOP: the connection stays open, nothing
// comes back) costs a login at most the 200 ms Redis bound, the per-IP limit keeps counting in
// memory, and the counts go back to Redis once it answers again. The test runs a redis-server of
// its own (the shared one is never stopped) on a free port in 4660–4690.
// From PATH, as .ci/run starts the shared one.
const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? 'redis-server';
const ANSWER_WITHIN_MS = 2000;

/** Starts a redis-server on the first port of 4660–4690 it can listen on. */
async function startRedis(): Promise<{ child: ChildProcess; port: number }> {
  for (let port = 4660; port <= 4690; port++) {
    const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ready = await new Promise<boolean>((resolve) => {
      let out = '';
      const timer = setTimeout(() => resolve(false), 10_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.on('error', () => {
        clearTimeout(timer);
        resolve(false);
      });
      child.on('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (ready) return { child, port };
    // Port taken (or a slow start): this one is not ours, try the next.
    child.kill('SIGKILL');
  }
  throw new Error('no free port for redis-server in 4660–4690');
}

/** The promise, or a failure naming what did not answer in time. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('rate limits with a Redis that stops answering', () => {
  let tdb: TestDb;
  let redis: { child: ChildProcess; port: number } | undefined;
  let inspector: Redis | undefined;
  let t: TestApp | undefined;
  const lines: string[] = [];
  const prefix = `careloop-test:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    tdb = await createTestDb('pglite');
    redis = await startRedis();
    inspector = new Redis({ host: '127.0.0.1', port: redis.port, lazyConnect: true });
    await inspector.connect();
  }, 60_000);

  afterAll(async () => {
    // Always resumed and killed, also when the test failed half-way.
    try {
      redis?.child.kill('SIGCONT');
      await t?.app.close();
      inspector?.disconnect();
    } finally {
      if (redis && redis.child.exitCode === null) {
        const exited = new Promise((resolve) => redis!.child.once('exit', resolve));
        redis.child.kill('SIGKILL');
        await within(5000, 'redis-server exit', exited).catch(() => undefined);
      }
      await tdb?.cleanup();
    }
  }, 30_000);

  const login = (ip: string, email = uniqueEmail('outage'), password = 'wrong password') =>
    within(
      ANSWER_WITHIN_MS,
      `login from ${ip}`,
      t!.app.inject({ method: 'POST', url: '/patient/login', payload: { email, password }, remoteAddress: ip }),
    );
  const keysOf = async (ip: string) => (await inspector!.keys(`${prefix}*`)).filter((k) => k.endsWith(`-${ip}`));
  const warnings = () => lines.filter((l) => l.includes('rate-limit store (Redis) not answering'));

  it('answers logins within 2 s while Redis is stopped, still locks out in memory, and uses Redis again after SIGCONT', async () => {
    t = await createTestApp(
      tdb.adapter,
      {
        REDIS_URL: `redis://127.0.0.1:${redis!.port}`,
        REDIS_KEY_PREFIX: prefix,
        LOGIN_RATE_LIMIT_PER_MINUTE: '3',
        LOG_LEVEL: 'info',
      },
      undefined,
      (line) => lines.push(line),
    );
    const { email } = await signup(t.app, 'patient');

    // Redis answering: the count is in Redis.
    expect((await login('198.51.100.1')).statusCode).toBe(401);
    expect(await keysOf('198.51.100.1')).toHaveLength(1);
    expect(warnings()).toEqual([]);

    redis!.child.kill('SIGSTOP');

    // The right password and wrong ones: the usual answers, each within 2 s.
    expect((await login('198.51.100.2', email, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login('198.51.100.3')).statusCode).toBe(401);
    // The per-IP limit still holds, counted in memory: the 4th in a minute is refused.
    const refused = await login('198.51.100.3');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many requests. Try again later.' });
    expect((await login('198.51.100.4')).statusCode).toBe(401);
    // One warning for the outage, not one per request.
    expect(warnings()).toHaveLength(1);

    redis!.child.kill('SIGCONT');

    // Back to Redis within a bounded wait (a background PING every second notices it): a login
    // from a fresh address is counted in Redis again.
    let back = false;
    for (let i = 0; i < 40 && !back; i++) {
      const ip = `198.51.100.${100 + i}`;
      expect((await login(ip)).statusCode).toBe(401);
      back = (await keysOf(ip)).length === 1;
      if (!back) await new Promise((r) => setTimeout(r, 250));
    }
    expect(back).toBe(true);
    expect(lines.filter((l) => l.includes('rate-limit store (Redis) answers again'))).toHaveLength(1);
    expect(warnings()).toHaveLength(1);
  }, 60_000);
});
