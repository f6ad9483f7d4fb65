import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createTestApp, createTestDb, signup, uniqueEmail, PASSWORD, type TestApp, type TestDb } from '../test/helpers';

// The per-IP rate limits with REDIS_URL: one count for every replica (issue 11 item 5).
// A Redis runs on this machine and in CI at this address.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('per-IP rate limits in a shared Redis', () => {
  let tdb: TestDb;
  const apps: TestApp[] = [];
  let redis: Redis;
  let prefix: string;

  beforeAll(async () => {
    tdb = await createTestDb('pglite');
    redis = new Redis(REDIS_URL);
  });
  beforeEach(() => {
    // A key prefix of its own: parallel runs and other tests never share a count.
    prefix = `careloop-test:${randomBytes(6).toString('hex')}:`;
  });
  afterEach(async () => {
    while (apps.length) await apps.pop()!.app.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  });
  afterAll(async () => {
    await redis.quit();
    await tdb.cleanup();
  });

  async function replica(env: Record<string, string> = { REDIS_URL, REDIS_KEY_PREFIX: prefix }) {
    const t = await createTestApp(tdb.adapter, { LOGIN_RATE_LIMIT_PER_MINUTE: '3', ...env });
    apps.push(t);
    return t;
  }
  const login = (t: TestApp, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/patient/login',
      payload: { email: uniqueEmail('redis'), password: PASSWORD },
      remoteAddress: ip,
    });

  it('counts an address once across two replicas: the 4th login in a minute is refused on either', async () => {
    const a = await replica();
    const b = await replica();
    const codes = [
      (await login(a, '203.0.113.1')).statusCode,
      (await login(b, '203.0.113.1')).statusCode,
      (await login(a, '203.0.113.1')).statusCode,
    ];
    expect(codes).toEqual([401, 401, 401]);
    const refused = await login(b, '203.0.113.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many requests. Try again later.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own count.
    expect((await login(a, '203.0.113.2')).statusCode).toBe(401);
    // The count is in Redis under the configured prefix.
    expect((await redis.keys(`${prefix}*`)).length).toBeGreaterThan(0);
  });

  it('without REDIS_URL each replica counts alone, in memory', async () => {
    const a = await replica({});
    const b = await replica({});
    for (let i = 0; i < 3; i++) expect((await login(a, '203.0.113.3')).statusCode).toBe(401);
    expect((await login(a, '203.0.113.3')).statusCode).toBe(429);
    expect((await login(b, '203.0.113.3')).statusCode).toBe(401);
    expect(await redis.keys(`${prefix}*`)).toEqual([]);
  });

  it('closes its Redis connection when the app closes', async () => {
    // This process's app connections, by the name the app gives them.
    const mine = async () =>
      ((await redis.client('LIST')) as string).split('\n').filter((l) => l.includes(`name=careloop-api-${process.pid} `)).length;
    const before = await mine();
    const a = await replica();
    expect(await mine()).toBe(before + 1);
    await apps.pop()!.app.close();
    // QUIT is answered before the server drops the connection: give it a moment.
    for (let i = 0; i < 50 && (await mine()) !== before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await mine()).toBe(before);
    expect(a.app.server.listening).toBe(false);
  });

  it('starts with its Redis unreachable: one warning, and logins are answered and limited in memory', async () => {
    const lines: string[] = [];
    // A port nobody listens on: connections are refused at once.
    const t = await createTestApp(
      tdb.adapter,
      { REDIS_URL: 'redis://127.0.0.1:1', LOGIN_RATE_LIMIT_PER_MINUTE: '3', LOG_LEVEL: 'info' },
      undefined,
      (line) => lines.push(line),
    );
    apps.push(t);
    const { email } = await signup(t.app, 'patient');
    const started = Date.now();
    const right = await t.app.inject({
      method: 'POST',
      url: '/patient/login',
      payload: { email, password: PASSWORD },
      remoteAddress: '203.0.113.9',
    });
    expect(right.statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await login(t, '203.0.113.9')).statusCode).toBe(401);
    expect((await login(t, '203.0.113.9')).statusCode).toBe(429);
    expect((await login(t, '203.0.113.10')).statusCode).toBe(401);
    // Generous bound: no login waits for Redis (the connection is refused, nothing is queued).
    expect(Date.now() - started).toBeLessThan(5000);
    const warnings = lines.filter((l) => l.includes('rate-limit store (Redis)'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40 });
    // The URL is never logged (it may carry a password).
    expect(warnings[0]).not.toContain('redis://');
  });
});
