import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Redis } from 'ioredis';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '@careloop/shared-contracts';
import type { AppDeps } from './deps';
import { REDACT_PATHS } from './http/log-redaction';
import { redactUrl } from './http/redact-url';
import { requestIdOf } from './http/request-id';
import { contractTransform } from './http/openapi';
import { fallbackStore, RedisHealth, withTimeout } from './http/rate-limit-store';
import { addSecurityHeaders } from './http/security-headers';
import { serializerCompiler } from './http/serializer';
import { trackRequestsForShutdown } from './http/shutdown';
import { BackgroundTasks } from './lib/background';
import { createMailOutbox } from './adapters/mail-outbox';
import { MailQueue } from './adapters/mail-queue';
import {
  DB_BUSY_MESSAGE,
  DB_BUSY_RETRY_AFTER_SECONDS,
  DB_UNAVAILABLE_MESSAGE,
  DB_UNAVAILABLE_RETRY_AFTER_SECONDS,
  HttpError,
  isDatabaseUnavailable,
  isStorageFull,
  STORAGE_FULL_MESSAGE,
} from './lib/errors';
import { authRoutes } from './modules/account/sign-in/routes';
import { connectionRoutes } from './modules/connections/routes';
import { revokeRoutes } from './modules/connections/revoke';
import { localFileRoutes } from './modules/files/local-routes';
import { fileRoutes } from './modules/files/routes';
import { healthRoutes } from './modules/health/routes';
import { healthRecordRoutes } from './modules/health-record/routes';
import { googleRoutes } from './modules/account/google/routes';
import { handoffRoutes } from './modules/account/handoff/routes';
import { sessionRoutes } from './modules/account/sessions/routes';
import { passwordResetRoutes } from './modules/account/password-reset/routes';
import { emailVerificationRoutes } from './modules/account/email-verification/routes';
import { prescriptionRoutes } from './modules/prescriptions/routes';
import { allergyRoutes } from './modules/allergies/routes';
import { pregnancyRoutes } from './modules/pregnancy/routes';
import { auditRoutes } from './modules/audit/routes';
import { recordRoutes } from './modules/records/routes';
import { reminderRoutes } from './modules/reminders/routes';
import { vitalSignRoutes } from './modules/vital-signs/routes';
import { fhirRoutes } from './modules/fhir/routes';
import { recordMetrics } from './http/metrics';
import { reminderLagSeconds } from './access';
import type { Registry } from 'prom-client';
import { notificationRoutes } from './modules/notifications/routes';
import { draftRoutes } from './modules/drafts/routes';
import { completeProfileRoutes } from './modules/profiles/complete';
import { profileRoutes } from './modules/profiles/routes';
import { twoFactorRoutes } from './modules/account/two-factor/routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Work finishing after its response (e.g. reset e-mails); closing the app waits for it. */
    backgroundTasks: BackgroundTasks;
    /** The app's mail, kept and tried again when sending fails (adapters/mail-queue.ts). */
    mailQueue: MailQueue;
    /** Prometheus metrics (http/metrics.ts), when METRICS_TOKEN is set. */
    metrics: Registry | null;
  }
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Socket timeouts, explicit because Fastify's defaults are none, or 72 s of keep-alive: long
 * enough to outlast a 10 s (Docker) or 30 s (Kubernetes) stop grace period.
 */
export function serverTimeouts(config: AppDeps['config']) {
  return {
    // A connection silent this long is closed (a stalled upload is aborted, its temp file removed);
    // never shorter than a summary's wait for its model, during which nothing is sent.
    connectionTimeout: Math.max(60_000, (config.summaryLlm?.timeoutMs ?? 0) + 15_000),
    // An idle kept-alive connection is closed after this (under the usual proxies' 60 s).
    keepAliveTimeout: 5_000,
    // The whole request, body included (an upload of MAX_UPLOAD_MB on a slow link), must arrive within this.
    requestTimeout: 300_000,
  };
}
/** The request headers must arrive within this (Node's default is 60 s). */
export const HEADERS_TIMEOUT_MS = 20_000;

export interface BuildOptions {
  /** Where log lines go (default stdout); tests capture them. */
  logStream?: { write(line: string): void };
}

/** Builds the app without listening: server.ts listens, tests use app.inject. */
export async function buildApp(given: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = given;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Belt and braces: the default serializers log no headers or bodies, but never let a
      // credential slip in through a custom log line.
      // Request URLs can carry credentials: reset links, and the OAuth callback's code and state.
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: redactUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
        }),
      },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: requestIdOf,
    ...serverTimeouts(config),
    // Malformed URLs fail in the router, before the error handler: answer them in the api's shape,
    // without echoing the URL (it may hold a reset token or a signed file link).
    frameworkErrors: (err, _request, reply) =>
      (reply as FastifyReply)
        .code(err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400)
        .send({ error: err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : 'Malformed URL' }),
    // A hop count as proxy-addr reads it: the n addresses nearest the api are proxies (Fastify's types take no number).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, i: number) =>
              i < hops
          )(config.trustProxy)
        : config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  // Every answer names its request, so a report or a proxy's log leads to the api's lines.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Before any route: server.ts's closeWithin() needs every request counted.
  trackRequestsForShutdown(app);

  const background = new BackgroundTasks((err, label) => app.log.error({ err, task: label }, 'background task failed'));
  app.decorate('backgroundTasks', background);
  app.addHook('onClose', async () => background.idle());
  // The routes' mail goes through the queue: a message that cannot be sent now follows later.
  const outbox = createMailOutbox(() => given.db.db, given.secretBox);
  const mailQueue = new MailQueue(given.mailer, app.log, outbox, () => given.clock.now());
  app.decorate('mailQueue', mailQueue);
  app.decorate(
    'metrics',
    config.metricsToken
      ? recordMetrics(app, {
          queueDepth: () => given.db.queueDepth(),
          mailPending: () => outbox.pending(),
          reminderLag: () => reminderLagSeconds(given.db.db, given.clock.now()),
        })
      : null,
  );
  app.addHook('onReady', async () => mailQueue.start());
  app.addHook('onClose', async () => {
    await mailQueue.retryNow(); // a last try; what is still queued is logged as lost
    mailQueue.close();
  });
  const deps: AppDeps = { ...given, mailer: mailQueue };

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not found' }));

  // The api serves only JSON: a CSP that allows nothing. /docs replaces it with its own below.
  addSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
  });
  // Whatever a bearer's request is answered (an unknown path, a framework error) stays out of
  // caches too; the contract's non-public endpoints add no-store themselves (http/route.ts).
  // (Callback hooks, here and below: an async one costs promises on every request.)
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.headers.authorization !== undefined && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  await app.register(cors, {
    origin: config.webOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization'],
    maxAge: 600,
  });
  // Only routes that opt in (the logins, signups, resets) are limited. With REDIS_URL the counts
  // live in Redis, shared by every replica; without it in memory, per replica.
  // Redis is an accelerator, never a single point of failure: the store stops waiting for it after
  // REDIS_ANSWER_TIMEOUT_MS (no offline queue, no retries) and counts in memory until it answers
  // again (http/rate-limit-store.ts).
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, {
        connectTimeout: 1000,
        // A backstop behind the store's own 200 ms bound: drops a command that never gets an answer.
        commandTimeout: 1000,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
        lazyConnect: true,
        // Named, so an operator's CLIENT LIST shows whose connection it is.
        connectionName: `careloop-api-${process.pid}`,
      })
    : undefined;
  const redisHealth = redis ? new RedisHealth(redis, app.log) : undefined;
  if (redis && redisHealth) {
    // ioredis reconnects by itself; its errors only mark the outage (logged once, not per retry).
    redis.on('error', (err: Error) => redisHealth.markDown(err));
    redis.on('ready', () => redisHealth.markUp());
    // Redis down at start-up: one warning, and the api starts counting in memory.
    await withTimeout(redis.connect(), 2000).catch((err: Error) => redisHealth.markDown(err));
    app.addHook('onClose', async () => {
      // Bounded: a stopped Redis never answers QUIT.
      await withTimeout(redis.quit()).catch(() => undefined);
      redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis && redisHealth ? { store: fallbackStore(redis, config.redisKeyPrefix, redisHealth) } : {}),
    // A store error (none expected: the fallback store counts in memory instead) lets the request
    // through; the per-account login throttle and the reset-mail limits live in the database.
    skipOnError: true,
    errorResponseBuilder: () => ({ statusCode: 429, error: 'Too many requests. Try again later.' }),
  });
  // Bounded queueing: when DB_MAX_QUEUE operations already wait for the database, a new request
  // is turned away at once (before it reads or writes anything) rather than queued into a timeout.
  // The liveness check needs no database and must not fail for a busy one.
  app.addHook('onRequest', (request, _reply, done) => {
    if (deps.db.queueDepth() >= config.dbMaxQueue && request.url !== ENDPOINTS.healthLive.path)
      done(new HttpError(503, DB_BUSY_MESSAGE, DB_BUSY_RETRY_AFTER_SECONDS));
    else done();
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'CareLoop API', version: '1.0.0' },
      servers: [{ url: config.apiPublicUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    // Every operation is described by its endpoint in the shared contract (shared-contracts ENDPOINTS).
    transform: contractTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Swagger UI needs inline script/style: its own CSP, served over plain http locally.
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });
  // Not in the contract (the one route written by hand): the document describes the contract, not itself.
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes(deps));
  await app.register(authRoutes(deps));
  await app.register(profileRoutes(deps));
  await app.register(twoFactorRoutes(deps));
  await app.register(passwordResetRoutes(deps));
  await app.register(emailVerificationRoutes(deps));
  await app.register(completeProfileRoutes(deps));
  await app.register(googleRoutes(deps));
  await app.register(handoffRoutes(deps));
  await app.register(sessionRoutes(deps));
  await app.register(notificationRoutes(deps));
  await app.register(draftRoutes(deps));
  await app.register(connectionRoutes(deps));
  await app.register(revokeRoutes(deps));
  await app.register(recordRoutes(deps));
  await app.register(vitalSignRoutes(deps));
  await app.register(prescriptionRoutes(deps));
  await app.register(auditRoutes(deps));
  await app.register(fileRoutes(deps));
  await app.register(fhirRoutes(deps));
  // A storage whose URLs the api serves itself (local disk) brings its upload and download routes.
  if (deps.storage.localServer) await app.register(localFileRoutes(deps, deps.storage.localServer));
  // Delivery is not started here: server.ts starts the runner (modules/reminders/boss.ts).
  await app.register(reminderRoutes(deps));
  await app.register(healthRecordRoutes(deps));
  await app.register(allergyRoutes(deps));
  await app.register(pregnancyRoutes(deps));

  return app;
}

/**
 * Every error leaves as `{ error }`; a 5xx never shows its details to the client. An unreachable
 * database answers 503 with Retry-After, a full disk 507 (FAULTS.md), anything else unexpected 500.
 */
function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof HttpError) {
    if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
    return reply.code(err.statusCode).send({ ...err.extra, error: err.message });
  }

  if (hasZodFastifySchemaValidationErrors(err)) {
    const where = err.validationContext ?? 'body';
    const message = err.validation
      .map((issue) => {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
        return `${field || where}: ${issue.message}`;
      })
      .join('; ');
    return reply.code(400).send({ error: message });
  }

  const status = err.statusCode ?? 500;
  if (status === 413) return reply.code(413).send({ error: 'Request body is too large (limit 1 MB)' });
  if (status === 429) return reply.code(429).send({ error: 'Too many requests. Try again later.' });
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && err instanceof SyntaxError)) {
    return reply.code(400).send({ error: 'body: Malformed JSON' });
  }
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (empty JSON body, unsupported media type, …): their text is safe.
    return reply.code(status).send({ error: err.message });
  }
  if (isStorageFull(err)) {
    // The disk (or the database's) is full: the write was refused whole (a transaction rolled
    // back, a temp file removed), so say so rather than report a bug. A request whose body was
    // not read to its end cannot leave the connection reusable: it is closed after this answer.
    request.log.error({ err }, 'storage full');
    if (request.raw.complete === false) reply.header('connection', 'close');
    return reply.code(507).send({ error: STORAGE_FULL_MESSAGE });
  }
  if (isDatabaseUnavailable(err)) {
    // PostgreSQL down, restarting or unreachable: a temporary state the pool recovers from by
    // itself (adapters/db.ts), so tell the client to come back rather than report a bug.
    request.log.warn({ err }, 'database unavailable');
    return reply
      .code(503)
      .header('retry-after', String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS))
      .send({ error: DB_UNAVAILABLE_MESSAGE });
  }
  request.log.error({ err }, 'unhandled error');
  return reply.code(500).send({ error: 'Internal server error' });
}
