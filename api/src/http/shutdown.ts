import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const SHUTTING_DOWN_MESSAGE = 'The server is shutting down. Please try again shortly.';

/** How long the 503s written at the deadline get to leave before every connection is cut. */
const FLUSH_MS = 250;

interface Drain {
  draining: boolean;
  inFlight: Map<FastifyRequest, FastifyReply>;
}
const drains = new WeakMap<FastifyInstance, Drain>();

/**
 * Tracks the requests in flight and, once closeWithin() has begun, marks every answer
 * `Connection: close` so a kept-alive client does not hold the process open after its answer.
 * Call once on the root instance, before routes are registered.
 */
export function trackRequestsForShutdown(app: FastifyInstance): void {
  const drain: Drain = { draining: false, inFlight: new Map() };
  drains.set(app, drain);
  // Callback hooks: an async one costs promises on every request.
  app.addHook('onRequest', (request, reply, done) => {
    drain.inFlight.set(request, reply);
    // 'close' comes once the answer is out or the connection is gone, whichever way it ends.
    reply.raw.once('close', () => drain.inFlight.delete(request));
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (drain.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * Closes the app within `graceMs`: no new connections, idle kept-alive ones closed at once,
 * in-flight requests may finish until the deadline; then those still unanswered get 503
 * `{ error }` (when their socket can still take it) and every connection is cut, which aborts
 * stalled uploads. Resolves once Fastify's close (and its onClose hooks) is done.
 */
export async function closeWithin(app: FastifyInstance, graceMs: number): Promise<'drained' | 'cut'> {
  const drain = drains.get(app);
  if (drain) drain.draining = true;
  const closed = app.close();
  // Fastify's close only does this with a serverFactory; done here so idle keep-alives go now.
  app.server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  const first = await Promise.race([closed.then(() => 'drained' as const), deadline]);
  clearTimeout(timer);
  if (first === 'drained') return 'drained';

  const late = drain ? [...drain.inFlight.values()] : [];
  app.log.warn({ inFlight: late.length, graceMs }, 'shutdown deadline reached: aborting the requests still in flight');
  for (const reply of late) {
    if (reply.sent || reply.raw.headersSent || reply.raw.destroyed || !reply.raw.writable) continue;
    try {
      reply.code(503).header('connection', 'close').header('retry-after', '5').send({ error: SHUTTING_DOWN_MESSAGE });
    } catch (err) {
      app.log.warn({ err }, 'could not answer an aborted request');
    }
  }
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, FLUSH_MS))]);
  app.server.closeAllConnections();
  await closed;
  return 'cut';
}
