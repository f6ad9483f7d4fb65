import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  onSendHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorResponse, routePattern, type Endpoint, type EndpointDef } from '@careloop/shared-contracts';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import { actorOf, auditDenied } from '../access';
import { AccessDenied } from '../lib/errors';
import { requireAnyRole, type SessionRead } from './guard';

/** The app (or a plugin scope of it) with zod schemas as its types. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

type Part<E, K extends string> = E extends { [P in K]: infer S extends z.ZodType } ? S : undefined;

/** The Fastify schema of an endpoint, as types: what its handler receives and may answer. */
export interface SchemaOf<E extends EndpointDef> extends FastifySchema {
  params: Part<E, 'params'>;
  querystring: Part<E, 'query'>;
  body: Part<E, 'body'>;
  response: { [S in E['status']]: E['response'] extends z.ZodType ? E['response'] : unknown } & {
    [S in E['errors'][number]]: typeof ErrorResponse;
  } & (E extends { otherResponses: infer O } ? O : unknown);
}

export type HandlerOf<E extends EndpointDef> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  unknown,
  SchemaOf<E>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

export interface RouteExtra {
  /**
   * Where the role check runs. onRequest (default): an unauthenticated or wrong-role caller is
   * answered before its input is validated. preHandler: input errors are answered first (the
   * account routes, as their tests expect).
   */
  guardAt?: 'onRequest' | 'preHandler';
  /** Route config, e.g. `{ rateLimit: { max, timeWindow } }`. */
  config?: RouteShorthandOptions['config'];
  /** The handler reads request.validationError itself instead of the error handler answering. */
  attachValidation?: boolean;
  /** The session and what the handler needs in one round trip (http/guard.ts SessionRead). */
  sessionRead?: SessionRead;
}

/**
 * Answers of authenticated endpoints (health data, profiles, tokens) and their errors are never
 * kept by a browser or a shared cache: a later user of the same machine or proxy cannot read them.
 */
export const noStore: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('cache-control', 'no-store');
  done(null, payload);
};

/** security of an OpenAPI operation: none for public endpoints, the bearer token otherwise. */
/**
 * The per-IP limit of every public door that checks a credential, hands out a session or sends
 * mail (login, 2FA, exchange, reset, verification): LOGIN_RATE_LIMIT_PER_MINUTE, shared through
 * Redis when REDIS_URL is set.
 */
export function perIpCredentialLimit(deps: Pick<AppDeps, 'config'>): RouteExtra['config'] {
  return { rateLimit: { max: deps.config.loginRateLimitPerMinute, timeWindow: '1 minute' } };
}

export const securityOf = (e: EndpointDef) => (e.access === 'public' ? [] : [{ bearerAuth: [] }]);

/** The Fastify route schema of an endpoint: validation, serialization and its OpenAPI operation. */
export function routeSchema(e: Endpoint) {
  const response: Record<number, z.ZodType> = {};
  if (e.response) response[e.status] = e.response;
  for (const status of e.errors) response[status] = ErrorResponse;
  Object.assign(response, e.otherResponses);
  return {
    operationId: e.operationId,
    tags: [...e.tags],
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    security: securityOf(e),
    ...(e.params ? { params: e.params } : {}),
    ...(e.query ? { querystring: e.query } : {}),
    ...(e.body ? { body: e.body } : {}),
    response,
  };
}

/**
 * Registers the Fastify route of a contract endpoint (shared-contracts ENDPOINTS): method, URL,
 * schema and, unless the endpoint is public, the guard that admits only its roles.
 */
export function route<E extends Endpoint>(app: ZodApp, deps: AppDeps, e: E, handler: HandlerOf<E>, extra: RouteExtra = {}): void {
  const guard =
    e.access === 'public' ? undefined : requireAnyRole(deps, e.access, extra.sessionRead, { beforeMfa: e.beforeMfa === true });
  app.route({
    method: e.method,
    url: routePattern(e.path),
    schema: routeSchema(e),
    ...(guard ? { [extra.guardAt ?? 'onRequest']: guard, onSend: noStore } : {}),
    ...(extra.config ? { config: extra.config } : {}),
    ...(extra.attachValidation ? { attachValidation: true } : {}),
    handler: guard ? auditingDenials(deps, handler as RouteHandlerMethod) : (handler as RouteHandlerMethod),
  });
}

/** A guarded handler whose refusals of a patient's data (AccessDenied) leave an audit row naming the caller. */
function auditingDenials(deps: AppDeps, handler: RouteHandlerMethod): RouteHandlerMethod {
  return async function (this: FastifyInstance, request, reply) {
    try {
      return await handler.call(this, request, reply);
    } catch (err) {
      if (err instanceof AccessDenied && request.auth) {
        const endpoint = `${request.method} ${request.routeOptions.url ?? ''}`;
        await auditDenied(deps.db.db, actorOf(request, deps.clock), err.patientId, endpoint).catch((e: unknown) =>
          request.log.error({ err: e }, 'the audit row of a refused request could not be written'),
        );
      }
      throw err;
    }
  } as RouteHandlerMethod;
}
