import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for these options, computed ONCE: with no per-request directive (no
 * nonce), helmet's answer is the same for every request, so running its middleware on each one
 * (as @fastify/helmet does, in two hooks) only repeats work. helmet stays the source of the values.
 */
export function securityHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' ? (csp.directives ?? {}) : {};
  if (
    Object.values(directives).some((v) => typeof v === 'function' || (Array.isArray(v) && v.some((x) => typeof x === 'function')))
  )
    throw new Error('a per-request CSP directive (a nonce) cannot be computed once');
  let finished = false;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err) => {
    if (err) throw err;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not finish synchronously');
  return Object.freeze(headers);
}

/** Every answer gets them; a route may still set its own value of one (the docs' and files' CSP). */
export function addSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
