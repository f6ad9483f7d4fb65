import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What an incoming X-Request-Id may look like to be kept (a proxy's or a caller's id); anything else is replaced. */
const ACCEPTED = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The id of a request, in its log lines and in its answer's X-Request-Id: the load balancer's or
 * caller's own id when it sent a plausible one (so one request can be followed across hops), else a
 * new UUID — unique across replicas and restarts, unlike a per-process counter.
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED.test(given) ? given : randomUUID();
}
