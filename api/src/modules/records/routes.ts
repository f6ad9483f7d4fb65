import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  MedicalRecord,
  MedicalRecordCreate,
  MedicalRecordCreated,
  MedicalRecordList,
  PageQuery,
  PatientIdParams,
  RecordIdParams,
  SummaryResponse,
} from 'shared-contracts';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { HttpError } from '../../lib/errors';
import { actorOf, audit } from '../audit/audit';
import { requireAnyRole } from '../auth/guard';
import { isAssigned } from '../connections/assignments';
import { drugAllergyAlerts } from '../prescriptions/drug-allergy';
import { buildSummary } from '../summary/summary';
import { PATIENT_NOT_FOUND, RECORD_NOT_FOUND } from './messages';
import { narrativeSummary } from './narrative';
import {
  biodataOf,
  distinctNotes,
  findDoctor,
  findPatient,
  findRecord,
  insertRecord,
  listRecords,
  prescriptionsForSummary,
  recordedAllergies,
  setSummary,
  toMedicalRecord,
  type ListScope,
} from './store';

/**
 * Medical records (SPEC §3, §7):
 *   POST /medicalhistory/{patientId}       doctor, assigned patient: create (biodata filled here)
 *   GET  /medicalhistories?page&limit      patient: own; doctor: assigned patients' (or one of them)
 *   GET  /medicalHistory/{id}              the patient, or a doctor assigned to them
 *   POST /medicalhistory/summary/{id}      doctor assigned to the record's patient: (re)generate
 * Anything the caller may not see answers 404 exactly as a missing one would; every read and
 * write appends an audit_log row.
 */
export function recordRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  const fetchFn = deps.fetch ?? globalThis.fetch;
  const anyone = requireAnyRole(deps, ['patient', 'doctor']);
  const doctorOnly = requireAnyRole(deps, ['doctor']);
  const common = { tags: ['medical records'], security: [{ bearerAuth: [] }] };
  const denied = { 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

  return async (app) => {
    app.post(
      '/medicalhistory/:patientId',
      {
        onRequest: doctorOnly,
        schema: {
          ...common,
          summary: 'Create a medical record for an assigned patient (doctor)',
          params: PatientIdParams,
          body: MedicalRecordCreate,
          response: { 201: MedicalRecordCreated, 400: ErrorResponse, ...denied },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request, clock);
        const { patientId } = request.params;
        const input = request.body;
        const result = await db.db.transaction(async (tx) => {
          if (!(await isAssigned(tx, actor.actorId, patientId))) throw new HttpError(404, PATIENT_NOT_FOUND);
          const patient = await findPatient(tx, patientId);
          const doctor = await findDoctor(tx, actor.actorId);
          if (!patient) throw new HttpError(404, PATIENT_NOT_FOUND);
          if (!doctor) throw new HttpError(401, 'Unauthorized');
          // This record's allergies, then the earlier records' and prescriptions' ones.
          const allergies = distinctNotes([input.medicalHistory.allergies, ...(await recordedAllergies(tx, patientId))]);
          const row = await insertRecord(tx, {
            patientId,
            doctorId: doctor.id,
            input,
            biodata: biodataOf(patient, input.medicalHistory.biodata.modeOfAdmission, actor.at),
            doctorInfo: { doctorName: doctor.name, doctorEmail: doctor.email },
            now: actor.at,
          });
          await audit(tx, { ...actor, action: 'create', entity: 'medical_record', entityId: row.id, patientId });
          return { row, allergies };
        });
        reply.code(201);
        return {
          record: toMedicalRecord(result.row),
          alerts: drugAllergyAlerts(input.treatment.prescribedDrug, result.allergies),
        };
      },
    );

    app.get(
      '/medicalhistories',
      {
        onRequest: anyone,
        schema: {
          ...common,
          summary: "Records, newest first: the patient's own, or the doctor's assigned patients'",
          querystring: PageQuery,
          response: { 200: MedicalRecordList, 400: ErrorResponse, ...denied },
        },
      },
      async (request) => {
        const actor = actorOf(request, clock);
        const { page, limit, patientId } = request.query;
        const scope = await listScope(deps, actor.actorRole, actor.actorId, patientId);
        const list = await listRecords(db.db, scope, page, limit);
        await audit(db.db, {
          ...actor,
          action: 'list',
          entity: 'medical_record',
          patientId: 'patientId' in scope ? scope.patientId : null,
        });
        return list;
      },
    );

    app.get(
      '/medicalHistory/:id',
      {
        onRequest: anyone,
        schema: {
          ...common,
          summary: 'One medical record (its patient, or a doctor assigned to them)',
          params: RecordIdParams,
          response: { 200: MedicalRecord, 400: ErrorResponse, ...denied },
        },
      },
      async (request) => {
        const actor = actorOf(request, clock);
        const row = await findRecord(db.db, request.params.id);
        if (!row || !(await maySee(deps, actor.actorRole, actor.actorId, row.patientId))) {
          throw new HttpError(404, RECORD_NOT_FOUND);
        }
        await audit(db.db, { ...actor, action: 'read', entity: 'medical_record', entityId: row.id, patientId: row.patientId });
        return toMedicalRecord(row);
      },
    );

    // Its own scope: the empty body the web app sends as `{}` may also come as nothing at all,
    // even with a JSON content type.
    await app.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
        const text = (body as string).trim();
        if (!text) return done(null, undefined);
        try {
          done(null, JSON.parse(text));
        } catch (err) {
          (err as { statusCode?: number }).statusCode = 400;
          done(err as Error, undefined);
        }
      });

      scope.withTypeProvider<ZodTypeProvider>().post(
        '/medicalhistory/summary/:id',
        {
          onRequest: doctorOnly,
          schema: {
            ...common,
            summary: "Generate (or regenerate) a record's decision-support summary (assigned doctor)",
            params: RecordIdParams,
            body: z.strictObject({}).nullish(),
            response: { 200: SummaryResponse, 400: ErrorResponse, ...denied },
          },
        },
        async (request) => {
          const actor = actorOf(request, clock);
          const row = await findRecord(db.db, request.params.id);
          if (!row || !(await isAssigned(db.db, actor.actorId, row.patientId))) throw new HttpError(404, RECORD_NOT_FOUND);

          const computed = buildSummary(toMedicalRecord(row), { prescriptions: await prescriptionsForSummary(db.db, row.patientId) });
          // Outside any transaction: the model may take seconds.
          const outcome = await narrativeSummary(computed.markdown, config.summaryLlm, fetchFn);
          if (outcome.error) request.log.warn({ err: outcome.error }, 'summary model failed; deterministic summary kept');

          await db.db.transaction(async (tx) => {
            await setSummary(tx, row.id, outcome.summary);
            await audit(tx, { ...actor, action: 'summarize', entity: 'medical_record', entityId: row.id, patientId: row.patientId });
          });
          return { summary: outcome.summary };
        },
      );
    });
  };
}

/** A patient sees their own; a doctor sees the patients assigned to them (isAssigned). */
export async function maySee(deps: AppDeps, role: string, accountId: string, patientId: string): Promise<boolean> {
  if (role === 'patient') return accountId === patientId;
  return isAssigned(deps.db.db, accountId, patientId);
}

/**
 * Whose rows a list shows. A patient: their own (a patientId other than theirs is "not found").
 * A doctor: one assigned patient when patientId is given (else 404), all assigned patients otherwise.
 */
export async function listScope(deps: AppDeps, role: string, accountId: string, patientId?: string): Promise<ListScope> {
  if (role === 'patient') {
    if (patientId !== undefined && patientId !== accountId) throw new HttpError(404, PATIENT_NOT_FOUND);
    return { patientId: accountId };
  }
  if (patientId === undefined) return { assignedTo: accountId };
  if (!(await isAssigned(deps.db.db, accountId, patientId))) throw new HttpError(404, PATIENT_NOT_FOUND);
  return { patientId };
}
