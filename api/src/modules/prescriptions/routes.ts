import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DrugAlertQuery,
  DrugAlertResponse,
  ErrorResponse,
  PageQuery,
  PatientIdParams,
  Prescription,
  PrescriptionCreate,
  PrescriptionCreated,
  PrescriptionList,
  RecordIdParams,
} from 'shared-contracts';
import type { AppDeps } from '../../app';
import { HttpError } from '../../lib/errors';
import { actorOf, audit } from '../audit/audit';
import { requireAnyRole } from '../auth/guard';
import { isAssigned } from '../connections/assignments';
import { PATIENT_NOT_FOUND, PRESCRIPTION_NOT_FOUND } from '../records/messages';
import { listScope, maySee } from '../records/routes';
import { distinctNotes, findDoctor, recordedAllergies } from '../records/store';
import { drugAllergyAlerts } from './drug-allergy';
import { findPrescription, insertPrescription, listPrescriptions, toPrescription } from './store';

/**
 * Prescriptions (SPEC §3, §7) and the drug–allergy check behind the prescribing forms:
 *   POST /prescription/{patientId}                 doctor, assigned patient: 201 with alerts (never blocking)
 *   GET  /prescription?page&limit                  patient: own; doctor: assigned patients'
 *   GET  /prescription/{id}                        the patient, or a doctor assigned to them
 *   GET  /drug-alerts/{patientId}?drug&allergies   doctor, assigned patient
 */
export function prescriptionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock } = deps;
  const anyone = requireAnyRole(deps, ['patient', 'doctor']);
  const doctorOnly = requireAnyRole(deps, ['doctor']);
  const common = { tags: ['prescriptions'], security: [{ bearerAuth: [] }] };
  const denied = { 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

  return async (app) => {
    app.post(
      '/prescription/:patientId',
      {
        onRequest: doctorOnly,
        schema: {
          ...common,
          summary: 'Prescribe for an assigned patient (doctor); alerts warn, never block',
          params: PatientIdParams,
          body: PrescriptionCreate,
          response: { 201: PrescriptionCreated, 400: ErrorResponse, ...denied },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request, clock);
        const { patientId } = request.params;
        const body = request.body;
        const result = await db.db.transaction(async (tx) => {
          if (!(await isAssigned(tx, actor.actorId, patientId))) throw new HttpError(404, PATIENT_NOT_FOUND);
          const doctor = await findDoctor(tx, actor.actorId);
          if (!doctor) throw new HttpError(401, 'Unauthorized');
          const allergies = distinctNotes([...body.allergies, ...(await recordedAllergies(tx, patientId))]);
          const row = await insertPrescription(tx, {
            patientId,
            doctorId: doctor.id,
            prescribedDrug: body.prescribedDrug,
            dosage: body.dosage,
            administrationRoute: body.administrationRoute,
            dosageFrequency: body.dosageFrequency,
            allergies: body.allergies,
            assignedBy: doctor.name,
            createdAt: actor.at,
          });
          await audit(tx, { ...actor, action: 'create', entity: 'prescription', entityId: row.id, patientId });
          return { row, allergies };
        });
        reply.code(201);
        return { ...toPrescription(result.row), alerts: drugAllergyAlerts(body.prescribedDrug, result.allergies) };
      },
    );

    app.get(
      '/prescription',
      {
        onRequest: anyone,
        schema: {
          ...common,
          summary: "Prescriptions, newest first: the patient's own, or the doctor's assigned patients'",
          querystring: PageQuery,
          response: { 200: PrescriptionList, 400: ErrorResponse, ...denied },
        },
      },
      async (request) => {
        const actor = actorOf(request, clock);
        const { page, limit, patientId } = request.query;
        const scope = await listScope(deps, actor.actorRole, actor.actorId, patientId);
        const list = await listPrescriptions(db.db, scope, page, limit);
        await audit(db.db, { ...actor, action: 'list', entity: 'prescription', patientId: 'patientId' in scope ? scope.patientId : null });
        return list;
      },
    );

    app.get(
      '/prescription/:id',
      {
        onRequest: anyone,
        schema: {
          ...common,
          summary: 'One prescription (its patient, or a doctor assigned to them)',
          params: RecordIdParams,
          response: { 200: Prescription, 400: ErrorResponse, ...denied },
        },
      },
      async (request) => {
        const actor = actorOf(request, clock);
        const row = await findPrescription(db.db, request.params.id);
        if (!row || !(await maySee(deps, actor.actorRole, actor.actorId, row.patientId))) {
          throw new HttpError(404, PRESCRIPTION_NOT_FOUND);
        }
        await audit(db.db, { ...actor, action: 'read', entity: 'prescription', entityId: row.id, patientId: row.patientId });
        return toPrescription(row);
      },
    );

    app.get(
      '/drug-alerts/:patientId',
      {
        onRequest: doctorOnly,
        schema: {
          ...common,
          summary: "A drug checked against the patient's recorded allergies and the ones typed (assigned doctor)",
          params: PatientIdParams,
          querystring: DrugAlertQuery,
          response: { 200: DrugAlertResponse, 400: ErrorResponse, ...denied },
        },
      },
      async (request) => {
        const actor = actorOf(request, clock);
        const { patientId } = request.params;
        const { drug, allergies: typed } = request.query;
        if (!(await isAssigned(db.db, actor.actorId, patientId))) throw new HttpError(404, PATIENT_NOT_FOUND);
        const allergies = distinctNotes([...(await recordedAllergies(db.db, patientId)), ...(typed ?? '').split(',')]);
        // It reads the allergy notes of the patient's records and prescriptions: audited as a list.
        await audit(db.db, { ...actor, action: 'list', entity: 'medical_record', patientId });
        return { alerts: drugAllergyAlerts(drug, allergies), allergies };
      },
    );
  };
}
