// The onRoute hook must be on the Fastify instance before buildApp registers anything: see route-spy.ts.
jest.mock('fastify', () => jest.requireActual('./route-spy').spyingFastify());

import { eq } from 'drizzle-orm';
import { connectionRequests, reminders } from '../db/schema';
import { BACKENDS } from '../test/helpers';
import { buildCast, closeCast, login, type Cast } from './cast';
import { registeredRoutes } from './route-spy';
import { accountOf, authVariants, CALLERS, hasAccount, ROWS, type Caller, type Row } from './route-table';

/**
 * Authorization matrix: every registered route × every kind of caller (route-table.ts), through
 * app.inject on one app per database.
 *
 * Cells are independent of their order: a cell whose call uses something up gets its own —
 * a fresh session (logout, complete-profile: `freshSession`), a fresh request to accept, a fresh
 * reminder to cancel, a fresh upload URL, a fresh account (reset-password, verify2FA) — and
 * denied cells aim at the cast's shared resources, which the last test checks are untouched.
 */
describe.each(BACKENDS)('authorization matrix on %s', (backend) => {
  let c: Cast;

  beforeAll(async () => {
    c = await buildCast(backend);
  }, 60_000);
  afterAll(() => closeCast(c));

  it('has a row for every registered route, and a route for every row', () => {
    const registered = registeredRoutes(c.t.app);
    const rows = ROWS.map((r) => r.route);
    const problems = [
      ...registered.filter((r) => !rows.includes(r)).map((r) => `add a row to the authorization matrix for ${r}`),
      ...rows.filter((r) => !registered.includes(r)).map((r) => `row without a route: ${r} (the app does not register it)`),
      ...rows.filter((r, i) => rows.indexOf(r) !== i).map((r) => `duplicate row: ${r}`),
    ];
    if (problems.length) throw new Error(problems.join('\n'));
  });

  describe.each(ROWS.map((row) => [row.route, row] as [string, Row]))('%s', (_route, row) => {
    it.each(CALLERS.map((k) => [k]))('as %s', async (caller: Caller) => {
      const expected = row.expect[caller];
      const token = row.freshSession && hasAccount(caller) ? await login(c.t, accountOf(c, caller)) : undefined;
      const failures: string[] = [];
      for (const variant of authVariants(c, caller, token)) {
        // A fresh request per variant: builders may hand out single-use resources.
        const req = await row.build(c, caller);
        const res = await c.t.app.inject({
          method: req.method,
          url: req.url,
          headers: { ...req.headers, ...(variant.header !== undefined ? { authorization: variant.header } : {}) },
          ...(req.payload !== undefined ? { payload: req.payload as never } : {}),
        });
        // A call that undid part of the cast (ending the caller's other sessions) puts it back.
        await row.restore?.(c);
        const where = `${row.route} as ${caller}${variant.label !== caller ? ` (${variant.label})` : ''}`;
        if (res.statusCode !== expected) {
          failures.push(`${where}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 300)}`);
          continue;
        }
        // the FHIR routes answer errors as OperationOutcomes (issue 15), the rest as { error }
        const fhirError = row.route.startsWith('GET /fhir/') && typeof safeJson(res.body)?.issue?.[0]?.diagnostics === 'string';
        if (res.statusCode >= 400 && !fhirError && typeof safeJson(res.body)?.error !== 'string') {
          failures.push(`${where}: ${res.statusCode} without a JSON { error }: ${res.body.slice(0, 300)}`);
          continue;
        }
        try {
          if (res.statusCode < 300) row.check?.(res, c, caller);
        } catch (err) {
          failures.push(`${where}: ${(err as Error).message}`);
        }
      }
      if (failures.length) throw new Error(failures.join('\n'));
    });
  });

  it("leaves the cast's shared resources untouched by the denied cells", async () => {
    const db = c.t.db.db;
    const [toP] = await db.select().from(connectionRequests).where(eq(connectionRequests.id, c.requestToP));
    const [toD] = await db.select().from(connectionRequests).where(eq(connectionRequests.id, c.requestToD));
    const [reminder] = await db.select().from(reminders).where(eq(reminders.id, c.reminderId));
    expect({ toP: toP.status, toD: toD.status, reminder: reminder.status }).toEqual({
      toP: 'pending',
      toD: 'pending',
      reminder: 'scheduled',
    });
  });
});

function safeJson(text: string): { error?: unknown; issue?: { diagnostics?: unknown }[] } | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
