import type { z } from 'zod';
import { ROLES } from './constants';
import type { Role } from './common';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call an endpoint: anyone (no bearer token), or a signed-in caller of one of these roles. */
export type Access = 'public' | readonly Role[];

/**
 * One endpoint of the api, declared once: the api registers its Fastify route from it
 * (api/src/http/route.ts), the OpenAPI document is derived from it, and the web apps call it
 * through shared-auth's `call()`.
 */
export interface EndpointDef {
  method: HttpMethod;
  /** SPEC §7 path, OpenAPI style: `/prescription/{id}` */
  path: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  access: Access;
  /**
   * Open to a session whose role must have two-factor on (api REQUIRE_MFA_FOR) while the account
   * has it off: what enrolment needs (own profile, two-factor set-up, recovery codes, logout). Every
   * other endpoint of such a session answers 403 MFA_REQUIRED.
   */
  beforeMfa?: true;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success status and its body (`z.undefined()` for none; `null`: not JSON, e.g. a PDF stream). */
  status: 200 | 201 | 204 | 302;
  response: z.ZodType | null;
  /** Statuses answered with `{ error }` (ErrorResponse). */
  errors: readonly number[];
  /** Answers with another shape than `{ error }` (the health check's 503). */
  otherResponses?: Readonly<Record<number, z.ZodType>>;
}

/** An endpoint as declared in ENDPOINTS: its operationId is its key there. */
export type Endpoint = EndpointDef & { operationId: string };

/** Keeps an endpoint's literal types (for typed handlers and calls) while checking its shape. */
export const endpoint = <const E extends EndpointDef>(e: E): E => e;

/** Names each endpoint of a group after its key (the OpenAPI operationId). */
export const withOperationIds = <const T extends Record<string, EndpointDef>>(group: T) =>
  Object.fromEntries(Object.entries(group).map(([operationId, e]) => [operationId, { ...e, operationId }])) as {
    [K in keyof T]: T[K] & { operationId: K };
  };

type Capital<S extends string> = S extends `${infer F}${infer R}` ? `${Uppercase<F>}${R}` : S;

/**
 * The same endpoint under `/patient/…` and `/doctor/…`: two endpoints (`patientMe`, `doctorMe`),
 * so the path never holds a `role` parameter.
 */
export function perRole<const K extends string, const E extends EndpointDef>(name: K, make: (role: Role) => E) {
  const capital = (name[0].toUpperCase() + name.slice(1)) as Capital<K>;
  return Object.fromEntries(ROLES.map((role) => [`${role}${capital}`, make(role)])) as Record<`${Role}${Capital<K>}`, E>;
}

/** `/prescription/{id}` → `/prescription/:id` (Fastify's pattern). */
export const routePattern = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** `/prescription/{id}` with `{ id: 'a b' }` → `/prescription/a%20b`; a missing parameter is a bug. */
export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new Error(`${path}: path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}
