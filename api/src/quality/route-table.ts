import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { ROLES, type Role } from '@careloop/shared-contracts';
import { doctors, medicalFiles, notifications, patients, sessions } from '../db/schema';
import { hashToken } from '../lib/tokens';
import { issueHandoffCode } from '../modules/account/handoff/codes';
import { allergyBody, newAllergy } from '../test/allergies';
import { account, connect, prescriptionBody, recordBody } from '../test/clinical';
import { PDF } from '../test/files';
import { PASSWORD, uniqueEmail, verificationTokenFor, signupExtras } from '../test/helpers';
import { pdfText } from '../test/pdf-text';
import {
  must,
  newDownloadUrl,
  newReminder,
  newUploadUrl,
  pendingSecondFactor,
  reminderBody,
  requestBetween,
  resetLinkFor,
  type Cast,
} from './cast';

/**
 * One row per route the app registers (documentation routes and HEAD/OPTIONS variants excluded,
 * see route-spy.ts): a builder of a VALID request for a caller, and the status each caller gets.
 * Both quality suites use it: the authorization matrix as is, the fuzzer as the base it mutates.
 */

export const CALLERS = [
  'anonymous',
  'owner', // P, the patient whose data it is
  'otherPatient', // P2
  'assignedDoctor', // D
  'unassignedDoctor', // D2
  'expired', // a session of P past its TTL
  'revoked', // a session of P that logged out
  'malformed', // 'Bearer abc', 'Bearer ' + 500 chars, 'Basic xyz', and a well-formed unknown token
] as const;
export type Caller = (typeof CALLERS)[number];

export interface Req {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** path and query */
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
}

export interface Row {
  /** `METHOD /pattern`, exactly as registered */
  route: string;
  /** A valid request for this caller (no Authorization: the suite adds the caller's). May create fresh resources. */
  build(c: Cast, caller: Caller): Promise<Req> | Req;
  expect: Record<Caller, number>;
  /** The call ends the session it runs under (logout, complete-profile): sign the caller in afresh for it. */
  freshSession?: boolean;
  /** The call may undo part of the cast (a fuzzed revoke aimed at P–D): put it back after each call. */
  restore?(c: Cast): Promise<void>;
  /** Extra checks on a cell's answer (throw to fail). */
  check?(res: LightMyRequestResponse, c: Cast, caller: Caller): void;
}

/** Same answer whoever asks: the route takes no bearer (an Authorization header is ignored). */
const everyone = (status: number): Record<Caller, number> =>
  Object.fromEntries(CALLERS.map((k) => [k, status])) as Record<Caller, number>;

/** A bearer route: no, expired, revoked or malformed token → 401. */
const guarded = (
  owner: number,
  otherPatient: number,
  assignedDoctor: number,
  unassignedDoctor: number,
): Record<Caller, number> => ({
  anonymous: 401,
  owner,
  otherPatient,
  assignedDoctor,
  unassignedDoctor,
  expired: 401,
  revoked: 401,
  malformed: 401,
});

/** A route of the caller's own account, for either role: the own role 2xx, the other role 403. */
const ownRole = (role: Role, ok: number) => (role === 'patient' ? guarded(ok, ok, 403, 403) : guarded(403, 403, ok, ok));

const UNAUTH_DATA_CALLERS: Caller[] = ['anonymous', 'expired', 'revoked', 'malformed'];

function perRole(role: Role): Row[] {
  const other: Role = role === 'patient' ? 'doctor' : 'patient';
  const me = (c: Cast) => (role === 'patient' ? c.P : c.D);
  const updateBody = role === 'patient' ? { occupation: 'Engineer' } : { specialization: ['Cardiology'] };
  const completeBody =
    role === 'patient'
      ? {
          DOB: '1990-04-02',
          gender: 'Female',
          maritalStatus: 'Married',
          occupation: 'Teacher',
          address: { street: '1 Main St', city: 'Springfield', state: 'IL', pinCode: '62701' },
        }
      : { gender: 'Male', specialization: ['Cardiology'], yearsOfExperience: 5, qualifications: ['MBBS'] };
  const requestPath = role === 'patient' ? '/patient/requestDoctor' : '/doctor/requestPatient';
  // The addressee of a pending request: P for /patient/responseRequest, D for /doctor/responseRequest.
  const addressee: Caller = role === 'patient' ? 'owner' : 'assignedDoctor';

  return [
    {
      route: `POST /${role}/signup`,
      build: () => ({
        method: 'POST',
        url: `/${role}/signup`,
        payload: { name: 'New Person', email: uniqueEmail(role), password: PASSWORD, ...signupExtras(role) },
      }),
      expect: everyone(201),
    },
    {
      route: `POST /${role}/login`,
      build: (c) => ({ method: 'POST', url: `/${role}/login`, payload: { email: me(c).email, password: PASSWORD } }),
      expect: everyone(200),
    },
    {
      route: `POST /${role}/auth/exchange`,
      // A fresh one-time code of the role's own account per cell (what a Google sign-in hands out).
      build: async (c) => ({
        method: 'POST',
        url: `/${role}/auth/exchange`,
        payload: { code: await issueHandoffCode(c.t.db.db, role, me(c).id, c.t.clock.now()) },
      }),
      expect: everyone(200),
    },
    {
      route: `POST /${role}/logout`,
      build: () => ({ method: 'POST', url: `/${role}/logout` }),
      freshSession: true,
      expect: ownRole(role, 204),
    },
    { route: `GET /${role}/me`, build: () => ({ method: 'GET', url: `/${role}/me` }), expect: ownRole(role, 200) },
    {
      route: `PATCH /${role}/me`,
      build: () => ({ method: 'PATCH', url: `/${role}/me`, payload: updateBody }),
      expect: ownRole(role, 200),
    },
    { route: `GET /${role}/sessions`, build: () => ({ method: 'GET', url: `/${role}/sessions` }), expect: ownRole(role, 200) },
    {
      route: `DELETE /${role}/sessions/:sessionId`,
      // No session of the caller's has this id: the own role reaches the handler and is told 404.
      build: () => ({ method: 'DELETE', url: `/${role}/sessions/${randomUUID()}` }),
      expect: ownRole(role, 404),
    },
    {
      route: `POST /${role}/sessions/end-others`,
      build: () => ({ method: 'POST', url: `/${role}/sessions/end-others` }),
      freshSession: true,
      // The caller's other sessions include the cast's own: put them back.
      restore: reviveCastSessions,
      expect: ownRole(role, 200),
    },
    {
      route: `GET /${role}/notifications`,
      build: () => ({ method: 'GET', url: `/${role}/notifications?page=1&limit=5` }),
      expect: ownRole(role, 200),
    },
    {
      route: `GET /${role}/notifications/unread`,
      build: () => ({ method: 'GET', url: `/${role}/notifications/unread` }),
      expect: ownRole(role, 200),
    },
    {
      route: `POST /${role}/notifications/:notificationId/read`,
      // A notification of the role's cast account (P: D's request, D: P's acceptance): the other
      // account of the role is told 404, exactly as for a missing id.
      build: async (c) => ({ method: 'POST', url: `/${role}/notifications/${await notificationOf(c, role, me(c).id)}/read` }),
      expect: role === 'patient' ? guarded(200, 404, 403, 403) : guarded(403, 403, 200, 404),
    },
    {
      route: `POST /${role}/notifications/read-all`,
      build: () => ({ method: 'POST', url: `/${role}/notifications/read-all` }),
      expect: ownRole(role, 200),
    },
    {
      route: `GET /${role}/notification-preferences`,
      build: () => ({ method: 'GET', url: `/${role}/notification-preferences` }),
      expect: ownRole(role, 200),
    },
    {
      route: `PUT /${role}/notification-preferences`,
      build: () => ({
        method: 'PUT',
        url: `/${role}/notification-preferences`,
        payload: { preferences: [{ kind: 'request-received', email: true }] },
      }),
      expect: ownRole(role, 200),
    },
    { route: `GET /${role}/qrCode`, build: () => ({ method: 'GET', url: `/${role}/qrCode` }), expect: ownRole(role, 200) },
    {
      route: `GET /${role}/recovery-codes`,
      build: () => ({ method: 'GET', url: `/${role}/recovery-codes` }),
      expect: ownRole(role, 200),
    },
    {
      route: `POST /${role}/recovery-codes`,
      // The cast's accounts have two-factor off: there are no codes to replace (409).
      build: () => ({ method: 'POST', url: `/${role}/recovery-codes`, payload: { currentPassword: PASSWORD } }),
      expect: ownRole(role, 409),
    },
    {
      route: `POST /${role}/verifyqrCode`,
      // A well-formed code: 200 { verify: false } unless it happens to be right.
      build: () => ({ method: 'POST', url: `/${role}/verifyqrCode`, payload: { code: '000000' } }),
      expect: ownRole(role, 200),
    },
    {
      route: `POST /${role}/remove2FA`,
      // The caller's own password (each cast account has PASSWORD); a wrong one is 403 (reauth.test.ts).
      build: () => ({ method: 'POST', url: `/${role}/remove2FA`, payload: { currentPassword: PASSWORD } }),
      expect: ownRole(role, 200),
    },
    {
      route: `POST /${role}/verify2FA`,
      // A fresh account per cell with two-factor on, right after its password step.
      build: async (c) => ({ method: 'POST', url: `/${role}/verify2FA`, payload: await pendingSecondFactor(c.t, role) }),
      expect: everyone(200),
    },
    {
      route: `POST /${role}/forgot-password`,
      build: (c) => ({ method: 'POST', url: `/${role}/forgot-password`, payload: { email: me(c).email } }),
      expect: everyone(200),
    },
    {
      route: `POST /${role}/reset-password/:id/:token`,
      // A reset signs every session of the account out: a fresh account and a real e-mailed link per cell.
      build: async (c) => {
        const who = await account(c.t, role);
        must(
          await c.t.app.inject({ method: 'POST', url: `/${role}/forgot-password`, payload: { email: who.email } }),
          200,
          'forgot',
        );
        const { id, token } = await resetLinkFor(c.t, who.email);
        return { method: 'POST', url: `/${role}/reset-password/${id}/${token}`, payload: { password: 'a brand new passphrase' } };
      },
      expect: everyone(200),
    },
    {
      route: `POST /${role}/verify-email/:token`,
      // A link works once: a fresh unverified account and its mailed link per cell.
      build: async (c) => {
        const who = await account(c.t, role, {}, { verified: false });
        return {
          method: 'POST',
          url: `/${role}/verify-email/${await verificationTokenFor(c.t.app, role, who.email)}`,
          payload: { password: PASSWORD },
        };
      },
      expect: everyone(200),
    },
    {
      route: `POST /${role}/verify-email/:token/disown`,
      // Deletes the account: a fresh unverified account and its mailed link per cell.
      build: async (c) => {
        const who = await account(c.t, role, {}, { verified: false });
        return { method: 'POST', url: `/${role}/verify-email/${await verificationTokenFor(c.t.app, role, who.email)}/disown` };
      },
      expect: everyone(200),
    },
    {
      route: `DELETE /${role}/me/pending-email`,
      // The cast's accounts have no e-mail change waiting: the own role reaches the handler and is told so (404).
      build: () => ({ method: 'DELETE', url: `/${role}/me/pending-email` }),
      expect: ownRole(role, 404),
    },
    {
      route: `POST /${role}/verify-email/resend`,
      // The cast's accounts are verified: the own role reaches the handler and is told so (409).
      build: () => ({ method: 'POST', url: `/${role}/verify-email/resend` }),
      expect: ownRole(role, 409),
    },
    {
      route: `POST /${role}/complete-profile`,
      build: async (c, caller) => {
        await makeProfileIncomplete(c, caller, role);
        return { method: 'POST', url: `/${role}/complete-profile`, payload: completeBody };
      },
      freshSession: true, // the session is rotated: the old token is revoked
      expect: ownRole(role, 200),
    },
    {
      route: `POST ${requestPath}`,
      // Someone new to ask each time (P and D are connected already: 409).
      build: async (c) => ({ method: 'POST', url: requestPath, payload: { email: (await account(c.t, other)).email } }),
      expect: ownRole(role, 201),
    },
    {
      route: `GET /${role}/receivedRequests`,
      build: () => ({ method: 'GET', url: `/${role}/receivedRequests` }),
      expect: ownRole(role, 200),
    },
    {
      route: `GET /${role}/sentRequests`,
      build: () => ({ method: 'GET', url: `/${role}/sentRequests` }),
      expect: ownRole(role, 200),
    },
    {
      route: `PATCH /${role}/responseRequest/:requestId`,
      // The addressee accepts a FRESH request (accepting uses it up); everyone else is pointed at
      // the cast's pending request to the same addressee, which must stay pending.
      build: async (c, caller) => {
        let id = role === 'patient' ? c.requestToP : c.requestToD;
        if (caller === addressee) {
          const from = await account(c.t, other);
          id = await requestBetween(c.t, from, role === 'patient' ? c.P : c.D);
        }
        return { method: 'PATCH', url: `/${role}/responseRequest/${id}`, payload: { action: 'accept' } };
      },
      // Not a party to the request (P2 for P's, D2 for D's) → 404, never 403.
      expect: role === 'patient' ? guarded(200, 404, 403, 403) : guarded(403, 403, 200, 404),
    },
  ];
}

export const ROWS: Row[] = [
  { route: 'GET /health', build: () => ({ method: 'GET', url: '/health' }), expect: everyone(200) },
  { route: 'GET /health/live', build: () => ({ method: 'GET', url: '/health/live' }), expect: everyone(200) },
  { route: 'GET /health/ready', build: () => ({ method: 'GET', url: '/health/ready' }), expect: everyone(200) },
  { route: 'GET /clinic', build: () => ({ method: 'GET', url: '/clinic' }), expect: everyone(200) },
  // Off unless METRICS_TOKEN is set (it is not here): no one, token or not, finds it.
  { route: 'GET /metrics', build: () => ({ method: 'GET', url: '/metrics' }), expect: everyone(404) },
  ...ROLES.flatMap(perRole),

  // Google sign-in is a browser flow: always a redirect (unconfigured here → ?error=google_unavailable).
  { route: 'GET /patient/auth/google', build: () => ({ method: 'GET', url: '/patient/auth/google' }), expect: everyone(302) },
  {
    route: 'GET /patient/auth/google/callback',
    build: () => ({ method: 'GET', url: '/patient/auth/google/callback?code=abc&state=def' }),
    expect: everyone(302),
  },

  // Revoke: the owner ends a FRESH connection (P–D must stay connected for every other row); every
  // other caller aims at P–D, which must stay. Not one of the caller's assignments → 404, never 403.
  {
    route: 'DELETE /patient/doctors/:doctorId',
    build: async (c, caller) => {
      let doctorId = c.D.id;
      if (caller === 'owner') {
        const doctor = await account(c.t, 'doctor');
        await connect(c.t, doctor, c.P);
        doctorId = doctor.id;
      }
      return { method: 'DELETE', url: `/patient/doctors/${doctorId}` };
    },
    expect: guarded(200, 404, 403, 403),
    restore: (c) => connect(c.t, c.D, c.P),
  },
  {
    route: 'DELETE /doctor/patients/:patientId',
    build: async (c, caller) => {
      let patientId = c.P.id;
      if (caller === 'assignedDoctor') {
        const patient = await account(c.t, 'patient');
        await connect(c.t, c.D, patient);
        patientId = patient.id;
      }
      return { method: 'DELETE', url: `/doctor/patients/${patientId}` };
    },
    expect: guarded(403, 403, 200, 404),
    restore: (c) => connect(c.t, c.D, c.P),
  },

  // Records (CLINICAL.md): another person's data by id → 404 exactly as an unknown id.
  {
    route: 'POST /medicalhistory/:patientId',
    build: (c) => ({ method: 'POST', url: `/medicalhistory/${c.P.id}`, payload: recordBody({ title: 'Follow-up' }) }),
    expect: guarded(403, 403, 201, 404),
  },
  {
    route: 'GET /medicalhistories',
    build: (c) => ({ method: 'GET', url: `/medicalhistories?page=1&limit=10&patientId=${c.P.id}` }),
    expect: guarded(200, 404, 200, 404),
  },
  {
    // P's trend: P themself, or D assigned to P; anyone else as if P did not exist.
    route: 'GET /vital-signs',
    build: (c) => ({ method: 'GET', url: `/vital-signs?patientId=${c.P.id}` }),
    expect: guarded(200, 404, 200, 404),
    check(res, c) {
      const ids = (res.json().points as { recordId: string }[]).map((p) => p.recordId);
      if (!ids.includes(c.recordId)) throw new Error(`P's record is not in P's trend: ${res.body.slice(0, 300)}`);
    },
  },
  {
    route: 'GET /medicalHistory/:id',
    build: (c) => ({ method: 'GET', url: `/medicalHistory/${c.recordId}` }),
    expect: guarded(200, 404, 200, 404),
  },
  {
    route: 'POST /medicalhistory/summary/:id',
    build: (c) => ({ method: 'POST', url: `/medicalhistory/summary/${c.recordId}`, payload: {} }),
    expect: guarded(403, 403, 200, 404),
  },

  // Drafts (access/drafts.ts): the author only, while assigned; another doctor's patient is 404, Discard always 204.
  { route: 'GET /doctor/drafts', build: () => ({ method: 'GET', url: '/doctor/drafts' }), expect: guarded(403, 403, 200, 200) },
  {
    route: 'GET /doctor/drafts/:form/:patientId',
    build: (c) => ({ method: 'GET', url: `/doctor/drafts/medical-record/${c.P.id}` }),
    expect: guarded(403, 403, 200, 404),
  },
  {
    route: 'PUT /doctor/drafts/:form/:patientId',
    build: (c) => ({
      method: 'PUT',
      url: `/doctor/drafts/medical-record/${c.P.id}`,
      payload: { values: { medicalHistory: { title: 'Chest pain' } }, step: 1 },
    }),
    expect: guarded(403, 403, 200, 404),
  },
  {
    route: 'DELETE /doctor/drafts/:form/:patientId',
    build: (c) => ({ method: 'DELETE', url: `/doctor/drafts/prescription/${c.P.id}` }),
    expect: guarded(403, 403, 204, 204),
  },

  // Prescriptions (CLINICAL.md).
  {
    route: 'POST /prescription/:id',
    build: (c) => ({ method: 'POST', url: `/prescription/${c.P.id}`, payload: prescriptionBody() }),
    expect: guarded(403, 403, 201, 404),
  },
  {
    route: 'GET /prescription',
    build: (c) => ({ method: 'GET', url: `/prescription?page=1&limit=10&patientId=${c.P.id}` }),
    expect: guarded(200, 404, 200, 404),
  },
  {
    route: 'GET /prescription/:id',
    build: (c) => ({ method: 'GET', url: `/prescription/${c.prescriptionId}` }),
    expect: guarded(200, 404, 200, 404),
  },
  {
    route: 'POST /prescription/:id/stop',
    build: (c) => ({ method: 'POST', url: `/prescription/${c.prescriptionId}/stop`, payload: { reason: 'Course changed' } }),
    expect: guarded(403, 403, 200, 404),
  },
  {
    route: 'GET /drug-alerts/:patientId',
    build: (c) => ({ method: 'GET', url: `/drug-alerts/${c.P.id}?drug=Amoxicillin&allergies=latex` }),
    expect: guarded(403, 403, 200, 404),
  },

  // The FHIR R4 api (issue 15): the app's rules, 404 alike for missing and not allowed.
  { route: 'GET /fhir/R4/metadata', build: () => ({ method: 'GET', url: '/fhir/R4/metadata' }), expect: everyone(200) },
  {
    route: 'GET /fhir/R4/Patient/:id/$everything',
    build: (c) => ({ method: 'GET', url: `/fhir/R4/Patient/${c.P.id}/$everything` }),
    expect: guarded(200, 404, 200, 404),
    check(res, c, caller) {
      if (res.statusCode === 200 && !res.body.includes(`"id":"${c.recordId}"`))
        throw new Error(`${caller}: P's record is not in P's $everything`);
    },
  },
  {
    route: 'GET /fhir/R4/:type',
    build: (c) => ({ method: 'GET', url: `/fhir/R4/Encounter?patient=Patient/${c.P.id}` }),
    expect: guarded(200, 404, 200, 404),
  },
  {
    route: 'GET /fhir/R4/Binary/:id',
    build: async (c) => {
      const [file] = await c.t.db.db
        .select({ id: medicalFiles.id })
        .from(medicalFiles)
        .where(eq(medicalFiles.storageKey, c.fileKey));
      return { method: 'GET', url: `/fhir/R4/Binary/${file.id}` };
    },
    expect: guarded(200, 404, 200, 404),
  },
  {
    route: 'GET /fhir/R4/:type/:id',
    build: (c) => ({ method: 'GET', url: `/fhir/R4/Encounter/${c.recordId}` }),
    expect: guarded(200, 404, 200, 404),
  },
  // The allergy list (issue 13): the patient and an assigned doctor read; the doctor writes; the patient reports.
  {
    route: 'GET /allergies/:patientId',
    build: (c) => ({ method: 'GET', url: `/allergies/${c.P.id}` }),
    expect: guarded(200, 404, 200, 404),
  },
  {
    route: 'POST /allergies/:patientId',
    build: (c) => ({ method: 'POST', url: `/allergies/${c.P.id}`, payload: allergyBody() }),
    expect: guarded(403, 403, 201, 404),
  },
  {
    route: 'GET /pregnancy/:patientId',
    build: (c) => ({ method: 'GET', url: `/pregnancy/${c.P.id}` }),
    expect: guarded(200, 404, 200, 404),
  },
  {
    route: 'PUT /pregnancy/:patientId',
    build: (c) => ({ method: 'PUT', url: `/pregnancy/${c.P.id}`, payload: { status: 'pregnant', gestationWeeks: 32 } }),
    expect: guarded(403, 403, 200, 404),
  },
  {
    route: 'PUT /allergy/:id',
    build: async (c) => ({
      method: 'PUT',
      url: `/allergy/${await newAllergy(c.t, c.D, c.P.id)}`,
      payload: allergyBody({ verificationStatus: 'refuted', statusReason: 'Negative oral challenge' }),
    }),
    expect: guarded(403, 403, 200, 404),
  },
  {
    route: 'POST /patient/allergies',
    build: () => ({ method: 'POST', url: '/patient/allergies', payload: allergyBody({ verificationStatus: 'unconfirmed' }) }),
    expect: guarded(201, 201, 403, 403),
  },
  {
    route: 'GET /allergy-substances',
    build: () => ({ method: 'GET', url: '/allergy-substances?q=penic' }),
    expect: guarded(200, 200, 200, 200),
  },

  // The patient's own access log (patient only).
  {
    route: 'GET /patient/audit',
    build: () => ({ method: 'GET', url: '/patient/audit?page=1&limit=100' }),
    expect: guarded(200, 200, 403, 403),
    check(res, c, caller) {
      const ids = (res.json().items as { entityId: string | null }[]).map((i) => i.entityId);
      if (caller === 'owner' && !(ids.includes(c.recordId) && ids.includes(c.prescriptionId))) {
        throw new Error(`P's audit should list the record and prescription D created: ${res.body.slice(0, 300)}`);
      }
      if (caller === 'otherPatient' && (ids.includes(c.recordId) || ids.includes(c.prescriptionId))) {
        throw new Error(`P2's audit shows P's entries: ${res.body.slice(0, 300)}`);
      }
    },
  },
  {
    route: 'GET /patient/health-record.pdf',
    build: () => ({ method: 'GET', url: '/patient/health-record.pdf' }),
    // patient only, and only their own: the route names no patient
    expect: guarded(200, 200, 403, 403),
    check(res, _c, caller) {
      if (res.statusCode !== 200) return;
      const text = pdfText(res.rawPayload);
      const [own, notOwn] = caller === 'owner' ? ['Pat Owner', 'Pia Other'] : ['Pia Other', 'Pat Owner'];
      if (!text.includes(own) || text.includes(notOwn)) throw new Error(`${caller}'s health record PDF: ${text.slice(0, 300)}`);
    },
  },
  // A doctor's own security log and the ends of their own assignments (doctor only): never
  // another account's rows.
  {
    route: 'GET /doctor/audit',
    build: () => ({ method: 'GET', url: '/doctor/audit?page=1&limit=100' }),
    expect: guarded(403, 403, 200, 200),
    check(res, c, caller) {
      const items = res.json().items as { kind: string; action: string; entity: string; entityId: string | null }[];
      const mine = caller === 'assignedDoctor' ? c.D.id : c.D2.id;
      const own = (i: (typeof items)[number]) =>
        i.kind === 'security' || (i.kind === 'access' && i.action === 'revoke' && i.entity === 'assignment');
      if (items.some((i) => !own(i) || i.entityId !== mine)) {
        throw new Error(`${caller}'s security log shows rows not its own: ${res.body.slice(0, 300)}`);
      }
    },
  },

  // Files (FILES_AND_REMINDERS.md).
  {
    route: 'GET /medical-record/:patientId',
    build: (c) => ({ method: 'GET', url: `/medical-record/${c.P.id}?fileType=application%2Fpdf&fileName=report.pdf` }),
    // Deliberate exception to "404, never 403": uploading is for the patient themself, and the
    // docs/code answer 403 `You can only upload files to your own medical record` to another
    // patient (P2), and 403 (role) to any doctor. Nothing is revealed: no lookup by the id happens.
    expect: guarded(200, 403, 403, 403),
  },
  {
    route: 'GET /medical-record',
    build: (c) => ({ method: 'GET', url: `/medical-record?patientId=${c.P.id}` }),
    expect: guarded(200, 404, 200, 404),
    check(res, _c, caller) {
      if ((caller === 'owner' || caller === 'assignedDoctor') && !(res.json().fileName as string[]).includes('scan.pdf')) {
        throw new Error(`P's stored scan.pdf is not listed: ${res.body.slice(0, 300)}`);
      }
    },
  },
  {
    // The signed URL is the authority: the same for every caller (a bearer is ignored).
    route: 'PUT /files/:patientId/:file',
    build: async (c) => ({
      method: 'PUT',
      url: await newUploadUrl(c.t, c.P),
      headers: { 'content-type': 'application/pdf' },
      payload: PDF,
    }),
    expect: everyone(200),
  },
  {
    route: 'GET /files/:patientId/:file',
    build: async (c) => ({ method: 'GET', url: await newDownloadUrl(c) }),
    expect: everyone(200),
  },

  // Reminders (doctors).
  {
    route: 'POST /doctor/reminder',
    build: (c) => ({ method: 'POST', url: '/doctor/reminder', payload: reminderBody(c) }),
    // D2 → 404 `You can only send reminders to your assigned patients`, as for every patient the
    // caller may not see, and the same answer for an unknown address: no lookup leaks.
    expect: guarded(403, 403, 201, 404),
  },
  {
    route: 'GET /doctor/reminders',
    build: () => ({ method: 'GET', url: '/doctor/reminders' }),
    expect: guarded(403, 403, 200, 200),
  },
  {
    route: 'GET /doctor/worklist',
    build: () => ({ method: 'GET', url: '/doctor/worklist' }),
    expect: guarded(403, 403, 200, 200),
    // Only the caller's own assigned patients: D sees P with a record (other rows add newer ones), D2 never sees P.
    check(res, c, caller) {
      const items = res.json().items as { patient: string; lastRecordAt: string | null }[];
      const p = items.find((i) => i.patient === c.P.id);
      if (caller === 'assignedDoctor' && !p?.lastRecordAt) {
        throw new Error(`D's worklist should list P with their latest record: ${res.body.slice(0, 300)}`);
      }
      if (caller === 'unassignedDoctor' && p) throw new Error(`D2's worklist shows P: ${res.body.slice(0, 300)}`);
    },
  },
  {
    route: 'DELETE /doctor/reminders/:id',
    // D cancels a FRESH reminder of theirs; every other caller aims at the cast's one, which must stay scheduled.
    build: async (c, caller) => ({
      method: 'DELETE',
      url: `/doctor/reminders/${caller === 'assignedDoctor' ? await newReminder(c) : c.reminderId}`,
    }),
    expect: guarded(403, 403, 200, 404),
  },
];

/** The Authorization header(s) a caller sends; several for `malformed` (each must get the cell's status). */
export function authVariants(c: Cast, caller: Caller, token?: string): { label: string; header?: string }[] {
  switch (caller) {
    case 'anonymous':
      return [{ label: 'no header' }];
    case 'expired':
      return [{ label: 'expired', header: `Bearer ${c.expiredToken}` }];
    case 'revoked':
      return [{ label: 'revoked', header: `Bearer ${c.revokedToken}` }];
    case 'malformed':
      return [
        { label: "'Bearer abc'", header: 'Bearer abc' },
        { label: "'Bearer ' + 500 chars", header: `Bearer ${'A1b2_-'.repeat(84).slice(0, 500)}` },
        { label: "'Basic xyz'", header: 'Basic xyz' },
        { label: 'raw token without Bearer', header: c.P.token },
        { label: 'well-formed unknown token', header: 'Bearer ' + 'x'.repeat(43) },
      ];
    default:
      return [{ label: caller, header: `Bearer ${token ?? accountOf(c, caller).token}` }];
  }
}

/**
 * complete-profile answers 409 once a profile is complete: the caller's own profile is made
 * incomplete first, as Google sign-in leaves a patient's (a doctor's: both lists empty).
 */
async function makeProfileIncomplete(c: Cast, caller: Caller, role: Role): Promise<void> {
  if (!hasAccount(caller) || accountOf(c, caller).role !== role) return;
  const { id } = accountOf(c, caller);
  if (role === 'patient') await c.t.db.db.update(patients).set({ profileComplete: false }).where(eq(patients.id, id));
  else await c.t.db.db.update(doctors).set({ specialization: [], qualifications: [] }).where(eq(doctors.id, id));
}

/** The newest notification of an account of the cast (the cast's connections made some for each). */
async function notificationOf(c: Cast, role: Role, accountId: string): Promise<string> {
  const [row] = await c.t.db.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.role, role), eq(notifications.accountId, accountId)))
    .orderBy(desc(notifications.createdAt))
    .limit(1);
  if (!row) throw new Error(`cast: no notification of ${role} ${accountId}`);
  return row.id;
}

/** Un-ends the sessions of the cast's four accounts (after a sign-out of the other sessions). */
async function reviveCastSessions(c: Cast): Promise<void> {
  const hashes = [c.P, c.P2, c.D, c.D2].map((a) => hashToken(a.token));
  await c.t.db.db.update(sessions).set({ revokedAt: null }).where(inArray(sessions.tokenHash, hashes));
}

export function accountOf(c: Cast, caller: Caller) {
  switch (caller) {
    case 'owner':
      return c.P;
    case 'otherPatient':
      return c.P2;
    case 'assignedDoctor':
      return c.D;
    case 'unassignedDoctor':
      return c.D2;
    default:
      throw new Error(`${caller} has no account`);
  }
}

export const hasAccount = (caller: Caller) => !UNAUTH_DATA_CALLERS.includes(caller);
