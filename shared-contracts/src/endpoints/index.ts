import { z } from 'zod';
import { endpoint, withOperationIds } from '../endpoint';
import {
  AUTH_ENDPOINTS,
  CONNECTION_ENDPOINTS,
  EMAIL_VERIFICATION_ENDPOINTS,
  GOOGLE_ENDPOINTS,
  PASSWORD_RESET_ENDPOINTS,
  PROFILE_ENDPOINTS,
  TWO_FACTOR_ENDPOINTS,
} from './account';
import { ALLERGY_ENDPOINTS } from './allergies';
import {
  AUDIT_ENDPOINTS,
  FILE_ENDPOINTS,
  PRESCRIPTION_ENDPOINTS,
  RECORD_ENDPOINTS,
  REMINDER_ENDPOINTS,
  TREND_ENDPOINTS,
} from './clinical';
import { DRAFT_ENDPOINTS } from './drafts';
import { FHIR_ENDPOINTS } from './fhir';
import { HEALTH_RECORD_ENDPOINTS } from './health-record';
import { NOTIFICATION_ENDPOINTS } from './notifications';
import { PREGNANCY_ENDPOINTS } from './pregnancy';
import { SESSION_ENDPOINTS } from './sessions';

export { SummaryBody } from './clinical';
export * from './fhir';

export const HealthResponse = z.object({ status: z.literal('ok') });
export const HealthUnavailable = z.object({ status: z.literal('unavailable') });
/** The clinic's own settings the screens need: every time is shown in its time zone (CLINIC_TIME_ZONE). */
export const ClinicInfo = z.object({ timeZone: z.string() });
export type ClinicInfo = z.infer<typeof ClinicInfo>;

/**
 * Every endpoint of the api, once; the key is the OpenAPI operationId. The api registers its
 * routes from these (api/src/http/route.ts), /openapi.json derives from them, and the web apps
 * call them through shared-auth's `call(ENDPOINTS.x, { params, query, body })`.
 */
export const ENDPOINTS = withOperationIds({
  health: endpoint({
    method: 'GET',
    path: '/health',
    summary: 'Readiness (as /health/ready): the database answers and the data folders can be written',
    tags: ['health'],
    access: 'public',
    status: 200,
    response: HealthResponse,
    errors: [],
    otherResponses: { 503: HealthUnavailable },
  }),
  healthLive: endpoint({
    method: 'GET',
    path: '/health/live',
    summary: 'Liveness: the process answers (no database, no disk)',
    tags: ['health'],
    access: 'public',
    status: 200,
    response: HealthResponse,
    errors: [],
  }),
  healthReady: endpoint({
    method: 'GET',
    path: '/health/ready',
    summary: 'Readiness: the database answers and the data directory, file store and mail outbox can be written',
    tags: ['health'],
    access: 'public',
    status: 200,
    response: HealthResponse,
    errors: [],
    otherResponses: { 503: HealthUnavailable },
  }),
  metrics: endpoint({
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus metrics (request latency per route and status, database queue, process), with the METRICS_TOKEN',
    description:
      'Answers text/plain in the Prometheus exposition format to Authorization: Bearer <METRICS_TOKEN>; ' +
      '404 when METRICS_TOKEN is not set, 401 with another token. Labels are route patterns, never URLs or ids.',
    tags: ['health'],
    access: 'public',
    status: 200,
    response: null,
    errors: [401, 404],
  }),
  clinic: endpoint({
    method: 'GET',
    path: '/clinic',
    summary: "The clinic's settings the screens need: its IANA time zone, in which every time is shown",
    tags: ['health'],
    access: 'public',
    status: 200,
    response: ClinicInfo,
    errors: [],
  }),
  ...AUTH_ENDPOINTS,
  ...PROFILE_ENDPOINTS,
  ...TWO_FACTOR_ENDPOINTS,
  ...PASSWORD_RESET_ENDPOINTS,
  ...EMAIL_VERIFICATION_ENDPOINTS,
  ...GOOGLE_ENDPOINTS,
  ...CONNECTION_ENDPOINTS,
  ...RECORD_ENDPOINTS,
  ...TREND_ENDPOINTS,
  ...PRESCRIPTION_ENDPOINTS,
  ...AUDIT_ENDPOINTS,
  ...FILE_ENDPOINTS,
  ...REMINDER_ENDPOINTS,
  ...FHIR_ENDPOINTS,
  ...HEALTH_RECORD_ENDPOINTS,
  ...ALLERGY_ENDPOINTS,
  ...PREGNANCY_ENDPOINTS,
  ...SESSION_ENDPOINTS,
  ...NOTIFICATION_ENDPOINTS,
  ...DRAFT_ENDPOINTS,
});
export type Endpoints = typeof ENDPOINTS;
export type OperationId = keyof Endpoints;
