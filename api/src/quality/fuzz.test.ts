// The onRoute hook must be on the Fastify instance before buildApp registers anything: see route-spy.ts.
jest.mock('fastify', () => jest.requireActual('./route-spy').spyingFastify());

import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { ENDPOINTS, PDF_MIME, routePattern } from '@careloop/shared-contracts';
import { createSession } from '../modules/account/auth/sessions';
import { BACKENDS } from '../test/helpers';
import { buildCast, closeCast, countAll, tableNames, type Cast } from './cast';
import { AUTH_GARBAGE, bodyOp, NOTHING_UUID, paramIndexes, pathOp, pathsOf, queryOp, toRequest, type Case } from './hostile';
import { registeredRoutes } from './route-spy';
import { ROWS, type Req, type Row } from './route-table';

/** The contract's binary answers (`response: null`): a stored file, the health-record PDF. */
const BINARY_ROUTES = new Set(
  Object.values(ENDPOINTS)
    .filter((e) => e.response === null)
    .map((e) => `${e.method} ${routePattern(e.path)}`),
);

/**
 * Input fuzzing (fast-check) of EVERY route in route-table.ts (the same list the authorization
 * matrix checks against the registered routes): hostile bodies, query strings, path parameters,
 * content types and Authorization headers, sent anonymously and as P (patient) and D (doctor,
 * assigned to P) so validation behind the guards is reached. Each run gets a freshly minted
 * session (a call may end it: logout, a password change, complete-profile).
 *
 * Properties of every answer:
 *   - 2xx (JSON, a 204 with no body, or the PDF of a signed file URL), 3xx only on the two Google
 *     sign-in routes (browser redirects), or a 4xx with a JSON `{ error: string }` body;
 *   - never a 5xx, never HTML, never a stack trace;
 *   - a REJECTED request (3xx/4xx) changes the row count of no table of the schema (all of them,
 *     read from information_schema), except ALLOWED_GROWTH below.
 * The audit_log grows on a rejected request only for a failed sign-in, password or two-factor code
 * (the owner's security log) and for a 404 that refused a patient's data (its 'denied' row);
 * otherwise it gets rows only with 2xx (the audit insert follows the access check, or shares its
 * transaction with the write).
 *
 * FUZZ_RUNS=n sets the runs per route (default 30), FUZZ_SEED=n replays a seed;
 * FUZZ_REPORT=1 logs every violation instead of stopping at the first (for bug hunting).
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const REPORT = process.env.FUZZ_REPORT === '1';

/** The only row-count changes a rejected request may make. Keep it minimal. */
const ALLOWED_GROWTH: { route: RegExp; status: number; table: string; by: number; why: string }[] = [
  {
    route: /./,
    status: 404,
    table: 'audit_log',
    by: 1,
    why: "a request the access layer refused for a patient's data is audited as 'denied' with its caller (http/route.ts)",
  },
  {
    route: /^POST \/(doctor\/requestPatient|patient\/requestDoctor)$/,
    status: 404,
    table: 'connection_misses',
    by: 1,
    why: "a request to an address with no account counts toward the sender's hourly limit (connections/store.ts)",
  },
  {
    route: /^POST \/(patient|doctor)\/login$/,
    status: 401,
    table: 'login_failures',
    by: 2,
    why: 'a failed login is counted per (role, e-mail, client address) and per (role, e-mail) (auth/throttle.ts)',
  },
  {
    route: /^POST \/(patient|doctor)\/login$/,
    status: 401,
    table: 'audit_log',
    by: 1,
    why: "a failed sign-in to an existing account is in its owner's security log (docs/security.md: Security log)",
  },
  {
    route: /^POST \/(patient|doctor)\/verify2FA$/,
    status: 401,
    table: 'audit_log',
    by: 1,
    why: "a wrong code after the right password is a failed sign-in in the owner's security log",
  },
  {
    route: /^POST \/(patient|doctor)\/remove2FA$/,
    status: 403,
    table: 'login_failures',
    by: 2,
    why: 'a wrong current password is counted like a failed login, per (account, client address) and per account (auth/reauth.ts)',
  },
  {
    route: /^POST \/(patient|doctor)\/verify-email\/:token$/,
    status: 403,
    table: 'login_failures',
    by: 2,
    why: "a wrong password with a verification link is counted like a failed login of the link's account (auth/reauth.ts)",
  },
];

const REDIRECT_ROUTES = ['GET /patient/auth/google', 'GET /patient/auth/google/callback'];
const STACK = /\n\s+at\s|\bat\s+\S+\s+\(|node_modules|\.(ts|js):\d+:\d+|Error: .*\n/;

describe.each(BACKENDS)('input fuzzing on %s', (backend) => {
  let c: Cast;
  let tables: string[];
  const violations: string[] = [];
  const statuses: Record<string, Record<number, number>> = {};

  beforeAll(async () => {
    c = await buildCast(backend);
    tables = await tableNames(c.t);
  }, 60_000);
  afterAll(async () => {
    if (REPORT) {
      const histogram = Object.entries(statuses).map(([route, s]) => `${route}: ${JSON.stringify(s)}`);
      console.log(
        `${backend}: answers per route\n${histogram.join('\n')}\n${violations.length} violations\n${violations.join('\n')}`,
      );
    }
    await closeCast(c);
  });

  it('fuzzes exactly the registered routes, and counts every table', () => {
    expect(ROWS.map((r) => r.route).sort()).toEqual(registeredRoutes(c.t.app));
    expect(tables).toEqual(
      expect.arrayContaining(['patients', 'doctors', 'sessions', 'audit_log', 'login_failures', 'medical_files', 'reminders']),
    );
  });

  it.each(ROWS.map((row) => [row.route, row] as [string, Row]))(
    '%s',
    async (_route, row) => {
      const base: Record<Case['caller'], Req> = {
        anonymous: await row.build(c, 'anonymous'),
        patient: await row.build(c, 'owner'),
        doctor: await row.build(c, 'assignedDoctor'),
      };
      const ids = [NOTHING_UUID, c.P.id, c.P2.id, c.D.id, c.D2.id, c.recordId, c.prescriptionId, c.reminderId, c.requestToP];
      // Mostly callers who pass the guard (so validation and handlers are reached), and mostly one
      // thing wrong at a time (so it is that one thing the route has to cope with).
      const okCallers = callersPassing(row);
      const callerArb = fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...okCallers) },
        { weight: 1, arbitrary: fc.constantFrom<Case['caller']>('anonymous', 'patient', 'doctor') },
      );
      const KEEP = { kind: 'keep' as const };
      const caseArb = fc
        .tuple(callerArb, fc.constantFrom('body', 'body', 'body', 'query', 'path', 'everything'))
        .chain(([caller, focus]) =>
          fc.record({
            caller: fc.constant(caller),
            auth:
              caller === 'anonymous' ? fc.option(fc.constantFrom(...AUTH_GARBAGE), { nil: undefined }) : fc.constant(undefined),
            body: focus === 'body' || focus === 'everything' ? bodyOp(base[caller].payload) : fc.constant(KEEP),
            query: focus === 'query' || focus === 'everything' ? queryOp(base[caller]) : fc.constant(KEEP),
            path: focus === 'path' || focus === 'everything' ? pathOp(row.route, ids) : fc.constant(KEEP),
          }),
        );

      await fc.assert(
        fc.asyncProperty(caseArb, async (cs) => {
          const token = cs.caller === 'anonymous' ? undefined : await mint(c, cs.caller);
          const req = toRequest(base[cs.caller], cs, token);
          await c.t.app.backgroundTasks.idle();
          const before = await countAll(c.t, tables);
          const res = await c.t.app.inject({
            method: req.method,
            url: req.url,
            headers: req.headers,
            payload: req.payload as never,
          });
          await c.t.app.backgroundTasks.idle(); // e.g. a reset e-mail's row is written after the answer
          const after = await countAll(c.t, tables);
          await row.restore?.(c);
          const seen = (statuses[row.route] ??= {});
          seen[res.statusCode] = (seen[res.statusCode] ?? 0) + 1;
          const problems = [...checkAnswer(row.route, res), ...checkCounts(row.route, res.statusCode, before, after)];
          if (!problems.length) return true;
          const what = `${row.route} [${describeCase(cs)}] → ${res.statusCode}: ${problems.join('; ')}`;
          if (REPORT) {
            violations.push(what);
            return true;
          }
          throw new Error(what);
        }),
        {
          numRuns: RUNS,
          // Run first: every field, query value and path parameter set to the known troublemakers.
          examples: systematicCases(row, okCallers, base).map((cs) => [cs] as [Case]),
          ...(SEED !== undefined ? { seed: SEED } : {}),
          // No shrinking: each try is a few database round trips; the case printed is readable as is.
          endOnFailure: true,
        },
      );
    },
    60_000,
  );
});

/** The callers (of anonymous, P, D) this route's valid request succeeds for, per the matrix. */
function callersPassing(row: Row): Case['caller'][] {
  const ok = (s: number) => s < 400;
  const callers: Case['caller'][] = [];
  if (ok(row.expect.anonymous)) callers.push('anonymous');
  if (ok(row.expect.owner)) callers.push('patient');
  if (ok(row.expect.assignedDoctor)) callers.push('doctor');
  return callers.length ? callers : ['patient', 'doctor'];
}

/** Strings PostgreSQL or the URL decoder are known to choke on. */
const TROUBLE = ['a\u0000b', 'x\uD800y', "'; DROP TABLE patients; --"];

/** Deterministic cases, run before the random ones: each body field / query value / path parameter × TROUBLE. */
function systematicCases(row: Row, callers: Case['caller'][], base: Record<Case['caller'], Req>): Case[] {
  const KEEP = { kind: 'keep' as const };
  const cases: Case[] = [];
  for (const caller of callers) {
    const req = base[caller];
    const payload = req.payload;
    if (payload && typeof payload === 'object' && !Buffer.isBuffer(payload)) {
      for (const path of pathsOf(payload)) {
        const current = path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], payload);
        for (const value of TROUBLE) {
          // A list of texts (specialization, allergies, …) gets the string as its one item.
          cases.push({
            caller,
            body: { kind: 'set', path, value: Array.isArray(current) ? [value] : value },
            query: KEEP,
            path: KEEP,
          });
        }
      }
    }
    for (const key of new URL(req.url, 'http://x').searchParams.keys()) {
      for (const value of TROUBLE) cases.push({ caller, body: KEEP, query: { kind: 'set', key, value }, path: KEEP });
    }
    for (const index of paramIndexes(row.route)) {
      for (const raw of ['%00', '%ED%A0%80', NOTHING_UUID])
        cases.push({ caller, body: KEEP, query: KEEP, path: { kind: 'param', index, raw } });
    }
  }
  return cases;
}

async function mint(c: Cast, caller: 'patient' | 'doctor'): Promise<string> {
  const who = caller === 'patient' ? c.P : c.D;
  return createSession(c.t.db.db, who.role, who.id, c.t.clock.now(), c.t.config.sessionMaxHours, {
    userAgent: '',
    ip: '127.0.0.1',
  });
}

/** A FHIR error body: resourceType OperationOutcome with an issue whose diagnostics is text. */
function isOperationOutcome(parsed: unknown): boolean {
  const o = parsed as { resourceType?: unknown; issue?: { diagnostics?: unknown }[] } | undefined;
  return o?.resourceType === 'OperationOutcome' && Array.isArray(o.issue) && typeof o.issue[0]?.diagnostics === 'string';
}

function checkAnswer(route: string, res: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  const status = res.statusCode;
  const type = String(res.headers['content-type'] ?? '');
  const body = res.body;
  if (status >= 500) problems.push(`a ${status}: ${body.slice(0, 200)}`);
  if (/html/i.test(type) || /^\s*</.test(body)) problems.push(`HTML answer (${type}): ${body.slice(0, 100)}`);
  if (STACK.test(body) && !type.startsWith('application/pdf')) problems.push(`stack trace in the body: ${body.slice(0, 300)}`);
  if (status >= 300 && status < 400 && !REDIRECT_ROUTES.includes(route))
    problems.push(`unexpected redirect to ${res.headers.location}`);
  if (status >= 200 && status < 300 && body.length > 0) {
    // The contract's binary answers (`response: null`: a stored file, the health-record PDF) are PDFs.
    const pdf = BINARY_ROUTES.has(route) && type.startsWith(PDF_MIME);
    const fhir = route.startsWith('GET /fhir/') && type.startsWith('application/fhir+json');
    if (!pdf && !fhir && !type.startsWith('application/json')) problems.push(`2xx with content-type ${type}`);
  }
  if (status >= 400 && status < 500) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    const keys = parsed && typeof parsed === 'object' ? Object.keys(parsed).sort().join(',') : '';
    // The FHIR routes answer errors as FHIR does: an OperationOutcome whose issue says why (a URL
    // the router cannot even decode is refused before any route, as `{ error }`, like any other).
    const plainError = type.startsWith('application/json') && keys === 'error';
    if (route.startsWith('GET /fhir/')) {
      if (!plainError && (!type.startsWith('application/fhir+json') || !isOperationOutcome(parsed)))
        problems.push(`4xx not an OperationOutcome (${type}): ${body.slice(0, 200)}`);
    } else if (
      !type.startsWith('application/json') ||
      typeof (parsed as { error?: unknown })?.error !== 'string' ||
      keys !== 'error'
    ) {
      problems.push(`4xx not shaped { error: string } (${type}): ${body.slice(0, 200)}`);
    }
  }
  return problems;
}

function checkCounts(route: string, status: number, before: Record<string, number>, after: Record<string, number>): string[] {
  if (status < 300) return [];
  const problems: string[] = [];
  for (const table of Object.keys(before)) {
    const delta = after[table] - before[table];
    if (delta === 0) continue;
    const allowed = ALLOWED_GROWTH.find((a) => a.table === table && a.status === status && a.route.test(route));
    if (allowed && delta > 0 && delta <= allowed.by) continue;
    problems.push(`rejected (${status}) but ${table} went ${before[table]} → ${after[table]}`);
  }
  return problems;
}

function describeCase(cs: Case): string {
  const short = (v: unknown) => {
    const s = JSON.stringify(v) ?? String(v);
    return s.length > 120 ? `${s.slice(0, 120)}…(${s.length} chars)` : s;
  };
  const parts = [`caller=${cs.caller}`];
  if (cs.auth !== undefined) parts.push(`auth=${short(cs.auth)}`);
  if (cs.body.kind !== 'keep') parts.push(`body=${short(cs.body)}`);
  if (cs.query.kind !== 'keep') parts.push(`query=${short(cs.query)}`);
  if (cs.path.kind !== 'keep') parts.push(`path=${short(cs.path)}`);
  return parts.join(' ');
}
