import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { outboxDir } from '../adapters/mail';
import { recordBody } from '../test/clinical';
import { startSourceServer } from '../test/source-server';
import { createTestDb, parseEml, PASSWORD, signupExtras, uniqueEmail, type TestDb } from '../test/helpers';
import { startTelemetry, tracingWanted } from '.';
import { KEPT_ATTRIBUTES } from './kept-attributes';

/*
 * The api's traces (telemetry/): the real server (server.ts through ts-node, CommonJS as tsc builds
 * it) as a child process. Off by default: no SDK, exporter or instrumentation is loaded. On (PostgreSQL only,
 * where the pg instrumentation has a driver to patch): its OTLP/JSON export, caught by a local
 * receiver, has the request's server span with the route and the request id, the database spans
 * under it, and none of the accounts' or the record's data.
 */
const PROBE = path.resolve(__dirname, '../test/opentelemetry-probe.ts');
const PORT = 5600 + (process.pid % 100);
const BASE = `http://127.0.0.1:${PORT}`;

describe('tracingWanted: the one rule', () => {
  it('is on with an OTLP endpoint, unless the SDK is disabled or the traces exporter is none', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_SERVICE_NAME: 'careloop-api', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'false' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('a protocol the api cannot follow (gRPC): it runs without traces and says why', () => {
    const said = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' };
      expect(startTelemetry(env)).toBe(false);
      expect(said).toHaveBeenCalledWith(expect.stringMatching(/runs without traces: .*grpc is not supported/));
    } finally {
      said.mockRestore();
    }
  });
});

/** The environment without any OTEL_* a developer's shell may carry. */
function envWithoutOtel(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
}

const startApi = (env: Record<string, string>) =>
  startSourceServer({ port: PORT, env, baseEnv: envWithoutOtel(), preload: [PROBE] });

/** The @opentelemetry/* and @fastify/otel packages the exited child had loaded (test/opentelemetry-probe.ts). */
function packagesLoaded(stderr: string): string[] {
  const found = /opentelemetry-packages-loaded=(\[.*\])/.exec(stderr);
  if (!found) throw new Error(`the probe printed nothing: ${stderr}`);
  return JSON.parse(found[1]);
}

async function call(method: string, url: string, { token, body }: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined, text };
}

async function expectStatus(res: Promise<Awaited<ReturnType<typeof call>>>, status: number) {
  const r = await res;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${r.text}`);
  return r;
}

describe('traces off by default', () => {
  let dataDir: string;
  beforeAll(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-otel-off-'))));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('with no OTEL_* set the api answers and loads no OpenTelemetry SDK, exporter or instrumentation', async () => {
    const api = await startApi({ DATA_DIR: dataDir });
    try {
      await expectStatus(call('GET', '/health/ready'), 200);
    } finally {
      expect(await api.stop()).toBe(0);
    }
    // prom-client loads the API (a no-op without an SDK) for its exemplars, tracing on or off.
    expect(packagesLoaded(api.stderr())).toEqual(['@opentelemetry/api']);
  }, 120_000);
});

/** A local OTLP/HTTP receiver: keeps every body POSTed to /v1/traces. */
async function otlpReceiver() {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface ExportedSpan {
  scope: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

/** The spans of OTLP/JSON export requests, their attributes as plain values. */
function spansOf(bodies: string[]): ExportedSpan[] {
  const value = (v: Record<string, unknown>) => Object.values(v)[0];
  return bodies.flatMap((body) =>
    (JSON.parse(body).resourceSpans as any[]).flatMap((rs) =>
      (rs.scopeSpans as any[]).flatMap((ss) =>
        (ss.spans as any[]).map((s) => ({
          scope: ss.scope.name as string,
          name: s.name,
          kind: s.kind,
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId || undefined,
          attributes: Object.fromEntries((s.attributes as any[]).map((a) => [a.key, value(a.value)])),
        })),
      ),
    ),
  );
}

/** The newest verification link's token mailed to `email` (the child's outbox; mail goes out after the answer). */
async function verificationToken(dataDir: string, role: string, email: string): Promise<string> {
  const pattern = new RegExp(`/${role}/verify-email/([A-Za-z0-9_-]+)`);
  for (let i = 0; i < 200; i++) {
    const dir = outboxDir(dataDir);
    for (const file of fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : []) {
      const mail = parseEml(fs.readFileSync(path.join(dir, file), 'utf8'));
      const found = mail.headers.to?.toLowerCase() === email.toLowerCase() && pattern.exec(mail.text);
      if (found) return found[1];
    }
    await wait(50);
  }
  throw new Error(`no verification mail to ${email}`);
}

const maybe = process.env.TEST_DATABASE_URL ? describe : describe.skip;
if (!process.env.TEST_DATABASE_URL) {
  console.info('telemetry.test.ts: traces on PostgreSQL skipped (TEST_DATABASE_URL unset)');
}

maybe('traces on (OTLP/JSON to a local receiver, PostgreSQL)', () => {
  let tdb: TestDb;
  let dataDir: string;
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  beforeAll(async () => {
    tdb = await createTestDb('postgres');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-otel-on-'));
    receiver = await otlpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await tdb?.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a record written through the api: its server span (route, request id), database spans under it, no PHI', async () => {
    const api = await startApi({
      DATA_DIR: dataDir,
      DATABASE_URL: tdb.adapter.connectionString!,
      // Every step through HTTP: no operator check of the doctor, no two-factor enrolment.
      DOCTOR_VERIFICATION: 'off',
      REQUIRE_MFA_FOR: 'none',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    const tag = randomBytes(4).toString('hex');
    const doctor = { name: `Dr Quillfeather ${tag}`, email: uniqueEmail(`otel-doctor-${tag}`) };
    const patient = { name: `Zephyrine Marchbank ${tag}`, email: uniqueEmail(`otel-patient-${tag}`) };
    const freeText = {
      title: `Syncope after Vendelmoor festival ${tag}`,
      allergies: `Brindlewort pollen ${tag}`,
      occupation: `Lighthouse keeper ${tag}`,
    };
    const secrets: string[] = [doctor.name, doctor.email, patient.name, patient.email, PASSWORD, ...Object.values(freeText)];
    let requestId: string;
    let patientId: string;
    try {
      const d = await expectStatus(
        call('POST', '/doctor/signup', { body: { ...doctor, password: PASSWORD, ...signupExtras('doctor') } }),
        201,
      );
      const p = await expectStatus(
        call('POST', '/patient/signup', { body: { ...patient, password: PASSWORD, occupation: freeText.occupation } }),
        201,
      );
      secrets.push(d.json.token, p.json.token);
      for (const [role, email] of [
        ['doctor', doctor.email],
        ['patient', patient.email],
      ]) {
        const token = await verificationToken(dataDir, role, email);
        secrets.push(token);
        await expectStatus(call('POST', `/${role}/verify-email/${token}`, { body: { password: PASSWORD } }), 200);
      }
      await expectStatus(call('POST', '/doctor/requestPatient', { token: d.json.token, body: { email: patient.email } }), 201);
      const received = await expectStatus(call('GET', '/patient/receivedRequests', { token: p.json.token }), 200);
      await expectStatus(
        call('PATCH', `/patient/responseRequest/${received.json[0]._id}`, { token: p.json.token, body: { action: 'accept' } }),
        200,
      );
      patientId = (await expectStatus(call('GET', '/patient/me', { token: p.json.token }), 200)).json.patient._id;
      const written = await expectStatus(
        call('POST', `/medicalhistory/${patientId}`, {
          token: d.json.token,
          body: recordBody({ title: freeText.title, allergies: freeText.allergies }),
        }),
        201,
      );
      requestId = written.headers.get('x-request-id')!;
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      // SIGTERM: server.ts stops the SDK last, which sends the spans still batched.
      expect(await api.stop()).toBe(0);
    }
    expect(packagesLoaded(api.stderr())).toEqual(
      expect.arrayContaining(['@opentelemetry/sdk-node', '@opentelemetry/instrumentation-pg', '@fastify/otel']),
    );

    const spans = spansOf(receiver.bodies);
    // The HTTP server span (instrumentation-http), named and tagged with the route pattern.
    const server = spans.filter(
      (s) =>
        s.scope === '@opentelemetry/instrumentation-http' &&
        s.kind === 2 &&
        s.attributes['http.route'] === '/medicalhistory/:patientId',
    );
    expect(server).toHaveLength(1);
    expect(server[0]).toMatchObject({
      name: 'POST /medicalhistory/:patientId',
      attributes: {
        'careloop.request_id': requestId,
        'http.request.method': 'POST',
        'http.response.status_code': 201,
        'url.path': `/medicalhistory/${patientId}`,
      },
    });
    const trace = spans.filter((s) => s.traceId === server[0].traceId);
    // Fastify's request span, under it, with the same request id.
    expect(trace).toContainEqual(
      expect.objectContaining({
        scope: '@fastify/otel',
        name: 'request',
        parentSpanId: server[0].spanId,
        attributes: expect.objectContaining({ 'careloop.request_id': requestId, 'http.route': '/medicalhistory/:patientId' }),
      }),
    );
    // The database spans (pg, patched in the CommonJS build) in the same trace; the insert's text
    // has its placeholders, its values are nowhere.
    const db = trace.filter((s) => s.scope === '@opentelemetry/instrumentation-pg');
    expect(db.length).toBeGreaterThan(0);
    const insert = db.find((s) => /^insert into "medical_records"/i.test(String(s.attributes['db.query.text'])));
    expect(String(insert?.attributes['db.query.text'])).toMatch(/\$1/);

    // Only the documented attributes, and no name, e-mail, free text, password or token anywhere
    // in what left the process (resource, span names, attributes).
    expect(spans.flatMap((s) => Object.keys(s.attributes)).filter((k) => !KEPT_ATTRIBUTES.has(k))).toEqual([]);
    const exported = receiver.bodies.join('\n');
    expect(secrets.filter((secret) => exported.includes(secret))).toEqual([]);
    // The verification links' paths were traced with their token redacted.
    expect(spans.some((s) => s.attributes['url.path'] === '/patient/verify-email/[redacted]')).toBe(true);
  }, 180_000);
});
