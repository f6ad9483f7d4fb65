import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/*
 * Prometheus metrics (prom-client), on only when METRICS_TOKEN is set: GET /metrics answers them
 * to `Authorization: Bearer <METRICS_TOKEN>`. Labels are the route's pattern (`/fhir/R4/:type/:id`),
 * the method and the status — never a URL, an id or anything a person typed.
 */

/** Latency buckets (seconds): from a cached read to a slow summary. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The sign-in steps whose refusals are login failures: the password, then the two-factor code. */
const SIGN_IN_STEPS = new Map([
  ['/patient/login', { role: 'patient', step: 'password' }],
  ['/doctor/login', { role: 'doctor', step: 'password' }],
  ['/patient/verify2FA', { role: 'patient', step: 'two-factor' }],
  ['/doctor/verify2FA', { role: 'doctor', step: 'two-factor' }],
]);

/** What the gauges read when Prometheus scrapes. */
export interface MetricSources {
  /** database operations waiting */
  queueDepth(): number;
  /** e-mails in the outbox not sent yet (the mailer down, or a retry due) */
  mailPending(): Promise<number>;
  /** seconds the oldest due reminder has waited */
  reminderLag(): Promise<number>;
}

/**
 * The app's registry: request latency per route and status (so rate and errors too), login failures,
 * the database queue, the mail outbox, the reminder runner's lag, the process.
 */
export function recordMetrics(app: FastifyInstance, sources: MetricSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'careloop_' });
  const requests = new Histogram({
    name: 'careloop_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status (its count is the request rate)',
    labelNames: ['method', 'route', 'status'],
    buckets: BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'careloop_db_queue_depth',
    help: 'Database operations waiting for a connection (PGlite: for the one connection)',
    registers: [registry],
    collect() {
      this.set(sources.queueDepth());
    },
  });
  new Gauge({
    name: 'careloop_mail_outbox_pending',
    help: 'E-mails kept in the outbox, not sent yet (growing: the mailer is failing)',
    registers: [registry],
    async collect() {
      this.set(await sources.mailPending());
    },
  });
  new Gauge({
    name: 'careloop_reminder_lag_seconds',
    help: 'How long the oldest due reminder has waited to be sent (0: none is due)',
    registers: [registry],
    async collect() {
      this.set(await sources.reminderLag());
    },
  });
  const loginFailures = new Counter({
    name: 'careloop_login_failures_total',
    help: 'Sign-ins refused (401: wrong password or code) or throttled (429), by role and step: a rise is an attack or an outage of the sign-in',
    labelNames: ['role', 'step', 'outcome'],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    // Read off the answer, as an operator would from the access log: the sign-in code stays as it is.
    const signIn = SIGN_IN_STEPS.get(route);
    if (signIn && request.method === 'POST' && (reply.statusCode === 401 || reply.statusCode === 429)) {
      loginFailures.inc({ ...signIn, outcome: reply.statusCode === 401 ? 'refused' : 'throttled' });
    }
  });
  return registry;
}

/** Whether an Authorization header carries the metrics token (compared in constant time). */
export function metricsAuthorized(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
