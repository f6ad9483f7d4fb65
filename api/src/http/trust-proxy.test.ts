import { eq } from 'drizzle-orm';
import { auditLog, loginFailures } from '../db/schema';
import { appPerFile, BACKENDS, PASSWORD, signup, type TestApp } from '../test/helpers';

// Behind a load balancer the client address is the one the trusted proxy saw, never one the
// client wrote: a forged left-most X-Forwarded-For entry locks no one out and enters no log.

const PROXY = '10.0.0.2'; // the load balancer: the api's socket peer
const VICTIM = '192.0.2.10';
const ATTACKER = '198.51.100.7';

describe.each(BACKENDS)('trusted proxies on %s', (backend) => {
  describe('TRUST_PROXY=1 (one load balancer)', () => {
    let t: TestApp;
    const fixture = appPerFile(backend, { TRUST_PROXY: '1' });
    beforeAll(() => ({ t } = fixture));

    /** A login through the proxy, which appends the address it saw to what the client sent. */
    const viaProxy = (email: string, password: string, seen: string, forged?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/patient/login',
        payload: { email, password },
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': forged ? `${forged}, ${seen}` : seen },
      });

    it('a forged X-Forwarded-For neither locks the victim out nor appears in the security log', async () => {
      const { email } = await signup(t.app, 'patient');
      for (let i = 0; i < 5; i++) expect((await viaProxy(email, 'wrong password', ATTACKER, VICTIM)).statusCode).toBe(401);
      expect((await viaProxy(email, PASSWORD, ATTACKER, VICTIM)).statusCode).toBe(429); // the attacker's own address

      const clients = (await t.db.db.select().from(loginFailures).where(eq(loginFailures.email, email))).map((r) => r.client);
      expect(clients).toContain(ATTACKER);
      expect(clients).not.toContain(VICTIM);
      const loggedFrom = async (ip: string) =>
        (await t.db.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.ip, ip))).map((r) => r.action);
      expect(await loggedFrom(VICTIM)).toEqual([]);
      expect(await loggedFrom(ATTACKER)).toContain('sign-in-failed');

      const owner = await viaProxy(email, PASSWORD, VICTIM);
      expect(owner.statusCode).toBe(200);
    });

    it('rotating the forged entry does not get past the per-address lock', async () => {
      const { email } = await signup(t.app, 'patient');
      for (let i = 0; i < 5; i++) await viaProxy(email, 'wrong password', ATTACKER, `203.0.113.${i + 1}`);
      expect((await viaProxy(email, PASSWORD, ATTACKER, '203.0.113.99')).statusCode).toBe(429);
    });
  });

  describe('no proxy (the default)', () => {
    let t: TestApp;
    const fixture = appPerFile(backend);
    beforeAll(() => ({ t } = fixture));

    it('X-Forwarded-For is ignored: the socket address is the client', async () => {
      const { email } = await signup(t.app, 'patient');
      const login = (password: string, forged: string) =>
        t.app.inject({
          method: 'POST',
          url: '/patient/login',
          payload: { email, password },
          remoteAddress: ATTACKER,
          headers: { 'x-forwarded-for': forged },
        });
      for (let i = 0; i < 5; i++) expect((await login('wrong password', VICTIM)).statusCode).toBe(401);
      const clients = (await t.db.db.select().from(loginFailures).where(eq(loginFailures.email, email))).map((r) => r.client);
      expect(clients).toContain(ATTACKER);
      expect(clients).not.toContain(VICTIM);
    });
  });
});
