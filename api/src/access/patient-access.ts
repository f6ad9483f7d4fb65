import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { MedicalRecord, Prescription, PrescriptionCreate, Reminder, ReminderCreate } from 'shared-contracts';
import type { z } from 'zod';
import type { Db, Queryable } from '../adapters/db';
import type { FileStorage } from '../adapters/storage';
import type { AppDeps } from '../deps';
import { HttpError } from '../lib/errors';
import { isAssigned } from './assignments';
import { actorOf, audit, type AuditActor, type AuditEntity } from './audit';
import {
  NOT_YOUR_PATIENT,
  OWN_RECORD_ONLY,
  PATIENT_ID_REQUIRED,
  PATIENT_NOT_FOUND,
  PRESCRIPTION_NOT_FOUND,
  RECORD_NOT_FOUND,
  REMINDER_NOT_FOUND,
} from './messages';
import { filesOf, insertPendingFile, markRejected, markStored } from './files';
import type { Page } from './pagination';
import { listScope, requireAssignedDoctor, requireSee, type Caller } from './policy';
import { findPrescription, insertPrescription, listPrescriptions, withPatientNames } from './prescriptions';
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
  type RecordInput,
} from './records';
import { cancelReminder, findPatientIdByEmail, insertReminder, remindersOf, toReminder } from './reminders';

/** An upload URL never used this long after it expired is given up (S3: its row becomes 'rejected'). */
const ABANDON_GRACE_MS = 60 * 60 * 1000;

export interface PageRequest {
  page: number;
  limit: number;
  patientId?: string;
}

type Log = { warn(obj: object, msg: string): void };

/**
 * The patient data one request's caller may reach — modelled on Medplum's per-request repository:
 * every method checks the caller may see the patient (404 otherwise, exactly as for a missing id)
 * and writes the audit row in the same transaction as its read or write, one row per patient
 * whose data it returns. Routes get one from accessFor(deps, request) and never query the
 * patient tables themselves (src/quality/access-boundary.test.ts fails if they do).
 */
export class PatientAccess {
  private readonly caller: Caller;

  constructor(
    private readonly db: Db,
    private readonly actor: AuditActor,
  ) {
    this.caller = { accountId: actor.actorId, role: actor.actorRole };
  }

  // --- medical records -------------------------------------------------------------------------

  /** Doctor, assigned patient: the record (biodata filled from the profile) and every recorded allergy. */
  async createRecord(patientId: string, input: RecordInput): Promise<{ record: MedicalRecord; allergies: string[] }> {
    return this.db.transaction(async (tx) => {
      await requireAssignedDoctor(tx, this.caller, patientId);
      const patient = await findPatient(tx, patientId);
      const doctor = await findDoctor(tx, this.caller.accountId);
      if (!patient) throw new HttpError(404, PATIENT_NOT_FOUND);
      if (!doctor) throw new HttpError(401, 'Unauthorized');
      // This record's allergies, then the earlier records' and prescriptions' ones.
      const allergies = distinctNotes([input.medicalHistory.allergies, ...(await recordedAllergies(tx, patientId))]);
      const row = await insertRecord(tx, {
        patientId,
        doctorId: doctor.id,
        input,
        biodata: biodataOf(patient, input.medicalHistory.biodata.modeOfAdmission, this.actor.at),
        doctorInfo: { doctorName: doctor.name, doctorEmail: doctor.email },
        now: this.actor.at,
      });
      await this.audit(tx, 'create', 'medical_record', patientId, row.id);
      return { record: toMedicalRecord(row), allergies };
    });
  }

  async listRecords(q: PageRequest): Promise<Page<MedicalRecord>> {
    return this.db.transaction(async (tx) => {
      const scope = await listScope(tx, this.caller, q.patientId);
      const page = await listRecords(tx, scope, q.page, q.limit);
      const shown = 'patientId' in scope ? [scope.patientId] : page.items.map((r) => r.patient);
      await this.auditList(tx, 'medical_record', shown);
      return page;
    });
  }

  async readRecord(id: string): Promise<MedicalRecord> {
    return this.db.transaction(async (tx) => {
      const row = await findRecord(tx, id);
      if (!row) throw new HttpError(404, RECORD_NOT_FOUND);
      await requireSee(tx, this.caller, row.patientId, RECORD_NOT_FOUND);
      await this.audit(tx, 'read', 'medical_record', row.patientId, row.id);
      return toMedicalRecord(row);
    });
  }

  /**
   * What a summary is computed from (assigned doctor): the record and the patient's prescriptions.
   * Audited when the summary is saved (saveSummary), as today: computing it writes nothing.
   */
  async summaryInputs(recordId: string) {
    const row = await findRecord(this.db, recordId);
    if (!row) throw new HttpError(404, RECORD_NOT_FOUND);
    await requireAssignedDoctor(this.db, this.caller, row.patientId, RECORD_NOT_FOUND);
    return { record: toMedicalRecord(row), prescriptions: await prescriptionsForSummary(this.db, row.patientId) };
  }

  async saveSummary(record: MedicalRecord, summary: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await setSummary(tx, record._id, summary);
      await this.audit(tx, 'summarize', 'medical_record', record.patient, record._id);
    });
  }

  // --- prescriptions ---------------------------------------------------------------------------

  async createPrescription(
    patientId: string,
    body: z.output<typeof PrescriptionCreate>,
  ): Promise<{ prescription: Prescription; allergies: string[] }> {
    return this.db.transaction(async (tx) => {
      await requireAssignedDoctor(tx, this.caller, patientId);
      const doctor = await findDoctor(tx, this.caller.accountId);
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
        createdAt: this.actor.at,
      });
      await this.audit(tx, 'create', 'prescription', patientId, row.id);
      const [prescription] = await withPatientNames(tx, [row]);
      return { prescription, allergies };
    });
  }

  async listPrescriptions(q: PageRequest): Promise<Page<Prescription>> {
    return this.db.transaction(async (tx) => {
      const scope = await listScope(tx, this.caller, q.patientId);
      const page = await listPrescriptions(tx, scope, q.page, q.limit);
      const shown = 'patientId' in scope ? [scope.patientId] : page.items.map((p) => p.patientId);
      await this.auditList(tx, 'prescription', shown);
      return page;
    });
  }

  async readPrescription(id: string): Promise<Prescription> {
    return this.db.transaction(async (tx) => {
      const row = await findPrescription(tx, id);
      if (!row) throw new HttpError(404, PRESCRIPTION_NOT_FOUND);
      await requireSee(tx, this.caller, row.patientId, PRESCRIPTION_NOT_FOUND);
      await this.audit(tx, 'read', 'prescription', row.patientId, row.id);
      const [prescription] = await withPatientNames(tx, [row]);
      return prescription;
    });
  }

  /**
   * Assigned doctor: the patient's recorded allergy notes plus the typed ones, for the drug check.
   * It reads the allergy notes of the patient's records and prescriptions: audited as a list.
   */
  async allergiesFor(patientId: string, typed: string[]): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      await requireAssignedDoctor(tx, this.caller, patientId);
      const allergies = distinctNotes([...(await recordedAllergies(tx, patientId)), ...typed]);
      await this.audit(tx, 'list', 'medical_record', patientId);
      return allergies;
    });
  }

  // --- medical files ---------------------------------------------------------------------------

  /** The patient themself: a new pending file row; returns the storage key to upload to. */
  async createUpload(patientId: string, fileName: string): Promise<string> {
    if (this.caller.role !== 'patient' || patientId !== this.caller.accountId) throw new HttpError(403, OWN_RECORD_ONLY);
    const storageKey = `${patientId}/${randomUUID()}.pdf`;
    await this.db.transaction(async (tx) => {
      const row = await insertPendingFile(tx, { patientId, storageKey, fileName, createdAt: this.actor.at });
      await this.audit(tx, 'create', 'medical_file', patientId, row.id);
    });
    return storageKey;
  }

  /**
   * Stored PDFs, newest first, as expiring URLs issued to this caller: the patient's own, or an
   * assigned patient's (a doctor must name the patient).
   */
  async listFiles(
    asked: string | undefined,
    storage: FileStorage,
    opts: { maxBytes: number; ttlSeconds: number; log: Log },
  ): Promise<{ presignedUrl: string[]; fileName: string[] }> {
    let patientId: string;
    if (this.caller.role === 'patient') {
      if (asked !== undefined && asked !== this.caller.accountId) throw new HttpError(404, PATIENT_NOT_FOUND);
      patientId = this.caller.accountId;
    } else {
      if (asked === undefined) throw new HttpError(400, PATIENT_ID_REQUIRED);
      await requireAssignedDoctor(this.db, this.caller, asked);
      patientId = asked;
    }
    if (!storage.verifiesOnReceipt) await this.verifyPending(patientId, storage, opts);
    const rows = await this.db.transaction(async (tx) => {
      const stored = await filesOf(tx, patientId, ['stored']);
      await this.audit(tx, 'list', 'medical_file', patientId);
      return stored;
    });
    const issuedTo = { accountId: this.caller.accountId, role: this.caller.role };
    const presignedUrl = await Promise.all(
      rows.map((r) =>
        storage.createDownloadUrl(r.storageKey, { fileName: r.fileName, expiresInSeconds: opts.ttlSeconds, issuedTo }),
      ),
    );
    return { presignedUrl, fileName: rows.map((r) => r.fileName) };
  }

  /** S3 only: checks pending uploads of the patient (size, `%PDF-`) before anything is listed. */
  private async verifyPending(patientId: string, storage: FileStorage, opts: { maxBytes: number; ttlSeconds: number; log: Log }) {
    const pending = await filesOf(this.db, patientId, ['pending']);
    const now = this.actor.at;
    await Promise.all(
      pending.map(async (row) => {
        try {
          const result = await storage.verify(row.storageKey, { maxBytes: opts.maxBytes });
          if (result.status === 'stored') await markStored(this.db, row.id, result.size, now);
          else if (result.status === 'rejected') {
            opts.log.warn({ fileId: row.id, reason: result.reason }, 'uploaded object rejected and deleted');
            await markRejected(this.db, row.id);
          } else if (now.getTime() - row.createdAt.getTime() > opts.ttlSeconds * 1000 + ABANDON_GRACE_MS) {
            await markRejected(this.db, row.id); // never uploaded: stop checking it
          }
        } catch (err) {
          // Storage unreachable: the file is simply not listed yet; the next listing tries again.
          opts.log.warn({ err, fileId: row.id }, 'could not verify an uploaded object');
        }
      }),
    );
  }

  // --- reminders (a doctor's e-mails to an assigned patient) --------------------------------------

  async createReminder(body: z.output<typeof ReminderCreate>): Promise<Reminder> {
    return this.db.transaction(async (tx) => {
      const patient = await findPatientIdByEmail(tx, body.to);
      // The same answer for an unknown address and a patient of someone else's: no account probing.
      if (!patient || this.caller.role !== 'doctor' || !(await isAssigned(tx, this.caller.accountId, patient.id))) {
        throw new HttpError(403, NOT_YOUR_PATIENT);
      }
      const startAt = new Date(body.startDate);
      const row = await insertReminder(tx, {
        doctorId: this.caller.accountId,
        patientId: patient.id,
        toEmail: body.to,
        subject: body.subject,
        text: body.text,
        startAt,
        intervalDays: body.intervalDays,
        status: 'scheduled',
        nextRunAt: startAt,
        createdAt: this.actor.at,
      });
      await this.audit(tx, 'create', 'reminder', patient.id, row.id);
      return toReminder(row, patient.name);
    });
  }

  /** The doctor's own reminders, newest first: a list row for every patient they concern. */
  async listReminders(): Promise<Reminder[]> {
    return this.db.transaction(async (tx) => {
      const rows = await remindersOf(tx, this.caller.accountId);
      await this.auditList(
        tx,
        'reminder',
        rows.map((r) => r.reminder.patientId),
      );
      return rows.map((r) => toReminder(r.reminder, r.patientName));
    });
  }

  /** Cancels the doctor's own reminder (anyone else's answers 404). */
  async cancelReminder(id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const cancelled = await cancelReminder(tx, this.caller.accountId, id);
      if (!cancelled) throw new HttpError(404, REMINDER_NOT_FOUND);
      await this.audit(tx, 'update', 'reminder', cancelled.patientId, id);
    });
  }

  // --- audit -----------------------------------------------------------------------------------

  private audit(
    tx: Queryable,
    action: 'read' | 'create' | 'update' | 'list' | 'summarize',
    entity: AuditEntity,
    patientId: string,
    entityId?: string,
  ) {
    return audit(tx, { ...this.actor, action, entity, entityId: entityId ?? null, patientId });
  }

  /** One list row per patient whose data the answer holds, in order of first appearance. */
  private async auditList(tx: Queryable, entity: AuditEntity, patientIds: string[]): Promise<void> {
    for (const patientId of new Set(patientIds)) await this.audit(tx, 'list', entity, patientId);
  }
}

/** The access of a guarded request's caller (its session), timed by the app's clock. */
export function accessFor(deps: Pick<AppDeps, 'db' | 'clock'>, request: FastifyRequest): PatientAccess {
  return new PatientAccess(deps.db.db, actorOf(request, deps.clock));
}
