import ky, { HTTPError, type KyInstance } from 'ky';
import type { ENDPOINTS, EndpointDef } from '@careloop/shared-contracts';
import { ENDPOINT_ROUTES, fillPath, SESSION_EXPIRED } from '@careloop/shared-contracts/routes';
import type { z } from 'zod';
import { noteMfaRequired } from './mfa';
import { useSession } from './session';
import { noteSessionRefused } from './signed-out';

let apiUrl = 'http://localhost:4000';
let instance: KyInstance | undefined;
let anonymousInstance: KyInstance | undefined;

/** The api's endpoints by operationId, as the contract types them (a type only: no schema is built here). */
type Endpoints = typeof ENDPOINTS;
export type EndpointName = keyof Endpoints;

/** The absolute URL of an endpoint the browser opens itself: `endpointUrl('patientGoogleSignIn')`. */
export const endpointUrl = (name: EndpointName, params?: Record<string, unknown>) =>
  `${apiUrl}${fillPath(ENDPOINT_ROUTES[name].path, params)}`;

export function configureApi(url: string): void {
  apiUrl = url.replace(/\/+$/, '');
  instance = undefined;
  anonymousInstance = undefined;
}

/** The same client without the session: no bearer token sent, no token in an answer adopted. */
function anonymousApi(): KyInstance {
  anonymousInstance ??= ky.create({ prefix: apiUrl, retry: 0, timeout: 30_000 });
  return anonymousInstance;
}

/** The one HTTP client: api base URL from runtime config, the session's bearer token. */
export function api(): KyInstance {
  instance ??= ky.create({
    prefix: apiUrl,
    // TanStack Query owns retries (SPEC §9); ky retrying too would multiply them.
    retry: 0,
    timeout: 30_000,
    hooks: {
      beforeRequest: [
        ({ request }) => {
          const { token } = useSession.getState();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      afterResponse: [
        // `response` is ky's clone: reading its body here leaves the caller's intact.
        async ({ request, response }) => {
          const session = useSession.getState();
          const sentToken = request.headers.get('Authorization')?.slice('Bearer '.length);
          if (!sentToken || sentToken !== session.token) return;
          if (response.status === 401) {
            // The server ended this session (ended from another device, password change) or it ran
            // out (idle or absolute limit): the role's sign-in page says which.
            const body: unknown = await response.json().catch(() => null);
            const expired = (body as { error?: unknown } | null)?.error === SESSION_EXPIRED;
            if (session.role) noteSessionRefused(session.role, expired);
            session.logout();
            return;
          }
          await noteMfaRequired(response);
          if (response.ok && response.headers.get('content-type')?.includes('application/json')) {
            const body: unknown = await response.json().catch(() => null);
            const token = (body as { token?: unknown } | null)?.token;
            if (typeof token === 'string' && token !== session.token) session.replaceToken(token);
          }
        },
      ],
    },
  });
  return instance;
}

type Slot<E, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer S extends z.ZodType }
  ? undefined extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: never };

/** What a call of an endpoint sends: its path parameters, query and body, as the contract types them. */
export type CallInput<E extends EndpointDef> = Slot<E, 'params'> &
  Slot<E, 'query'> &
  Slot<E, 'body'> & {
    /** Extra headers (logout sends the token it ends, see auth.ts). */
    headers?: Record<string, string>;
    /**
     * Outside the current session: no bearer token, and a token in the answer is not adopted
     * (the Google hand-off's exchange, which must not swap the session behind the caller's back).
     */
    anonymous?: boolean;
    /** The browser may finish the request after the page is gone (a draft saved as the tab closes). */
    keepalive?: boolean;
  };

/** What a call of an endpoint answers: its success response, as the contract types it. */
export type CallOutput<E extends EndpointDef> = E['response'] extends z.ZodType ? z.output<E['response']> : unknown;

/**
 * Calls one endpoint of the api by its operationId (shared-contracts ENDPOINTS) through the one ky
 * client: the method and path come from the contract's routes (`ENDPOINT_ROUTES`, no zod), the path
 * is filled from the params. In development and tests the answer is parsed against the endpoint's
 * response schema (a mismatch throws; `partialAnswer`: any of its fields may be missing); a
 * production build trusts it and never loads the schemas for a call.
 */
export async function call<K extends EndpointName>(
  name: K,
  ...[input]: object extends CallInput<Endpoints[K]>
    ? [input?: CallInput<Endpoints[K]> & { partialAnswer?: true }]
    : [input: CallInput<Endpoints[K]> & { partialAnswer?: true }]
): Promise<CallOutput<Endpoints[K]>> {
  const given: unknown = input;
  const { params, query, body, headers, anonymous, keepalive, partialAnswer } = (given ?? {}) as {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
    headers?: Record<string, string>;
    anonymous?: boolean;
    keepalive?: boolean;
    partialAnswer?: true;
  };
  const route = ENDPOINT_ROUTES[name];
  const searchParams = Object.fromEntries(
    Object.entries(query ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  );
  const response = await (anonymous ? anonymousApi() : api())(fillPath(route.path, params).replace(/^\//, ''), {
    method: route.method,
    searchParams,
    ...(body !== undefined ? { json: body } : {}),
    ...(headers ? { headers } : {}),
    ...(keepalive ? { keepalive } : {}),
  });
  if (!route.json) return undefined as CallOutput<Endpoints[K]>;
  const answer: unknown = await response.json();
  // webpack's mode sets process.env.NODE_ENV (jest: 'test'): a production build drops this branch,
  // and the contract's schemas with it.
  if (process.env.NODE_ENV !== 'production') {
    const { ENDPOINTS: contract } = await import('@careloop/shared-contracts');
    const schema = (contract as Record<string, EndpointDef>)[name].response as z.ZodType;
    return (partialAnswer ? (schema as z.ZodObject).partial() : schema).parse(answer) as CallOutput<Endpoints[K]>;
  }
  return answer as CallOutput<Endpoints[K]>;
}

/**
 * Fetches an endpoint's answer as a file (a PDF, a FHIR Bundle) through the one client, so the
 * session's bearer token goes with it — a plain link would be sent without it.
 */
export async function fetchFile(name: EndpointName, input: { params?: Record<string, unknown>; accept: string }): Promise<Blob> {
  const route = ENDPOINT_ROUTES[name];
  const response = await api()(fillPath(route.path, input.params).replace(/^\//, ''), {
    method: route.method,
    headers: { Accept: input.accept },
  });
  return response.blob();
}

/** The server's `error` text of a failed call, if it sent one. */
export async function serverError(err: unknown): Promise<string | undefined> {
  // ky has read the answer's body into `data` (parsed when it is JSON).
  const error = err instanceof HTTPError ? (err.data as { error?: unknown } | undefined)?.error : undefined;
  return typeof error === 'string' ? error : undefined;
}

export function httpStatus(err: unknown): number | undefined {
  return err instanceof HTTPError ? err.response.status : undefined;
}
