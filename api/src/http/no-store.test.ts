import { ENDPOINTS, ROLES, type Endpoint, type Role } from '@careloop/shared-contracts';
import { appPerFile, BACKENDS, bearer, signup } from '../test/helpers';

// Every endpoint that needs a session: what a browser or a proxy must never keep.
const authenticated = (Object.values(ENDPOINTS) as Endpoint[]).filter(
  (e): e is Endpoint & { access: readonly Role[] } => e.access !== 'public',
);
const SOME_ID = '00000000-0000-4000-8000-000000000000';
const urlOf = (e: Endpoint) => e.path.replace(/\{\w+\}/g, SOME_ID);

describe.each(BACKENDS)('Cache-Control: no-store on authenticated answers (%s)', (backend) => {
  const fixture = appPerFile(backend);

  it('covers the authenticated endpoints of the contract', () => {
    expect(authenticated.length).toBeGreaterThan(20);
  });

  it.each(authenticated.map((e) => [`${e.method} ${e.path}`, e] as const))('%s: its answers and its errors', async (_name, e) => {
    const { app } = fixture.t;
    const call = (token?: string) =>
      app.inject({ method: e.method, url: urlOf(e), ...(token ? { headers: bearer(token) } : {}) });
    // No token: the guard's 401 (400 first where the guard runs after validation: no body sent).
    const anonymous = await call();
    expect([400, 401]).toContain(anonymous.statusCode);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    for (const role of ROLES) {
      // A fresh account per call: logout and complete-profile end the session they run under.
      const { token } = await signup(app, role);
      const res = await call(token);
      if (!e.access.includes(role)) expect([400, 403]).toContain(res.statusCode);
      // Whatever the answer (a 200, a 400 for the missing body, a 404 for the made-up id): not kept.
      expect([res.statusCode, res.headers['cache-control']]).toEqual([res.statusCode, 'no-store']);
    }
  });

  it('a successful read of health data and the profile is not kept', async () => {
    const { app } = fixture.t;
    const { token } = await signup(app, 'patient');
    for (const url of ['/patient/me', '/patient/audit']) {
      const res = await app.inject({ method: 'GET', url, headers: bearer(token) });
      expect([url, res.statusCode, res.headers['cache-control']]).toEqual([url, 200, 'no-store']);
    }
  });

  it("a bearer's request to an unknown path is not kept either; public answers keep their own caching", async () => {
    const { app } = fixture.t;
    const { token } = await signup(app, 'doctor');
    const unknown = await app.inject({ method: 'GET', url: '/doctor/nothing-here', headers: bearer(token) });
    expect([unknown.statusCode, unknown.headers['cache-control']]).toEqual([404, 'no-store']);
    const health = await app.inject({ method: 'GET', url: ENDPOINTS.health.path });
    expect(health.headers['cache-control']).toBeUndefined();
  });
});
