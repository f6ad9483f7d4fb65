import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  END_DATE_PAST,
  OBSERVATION_CLOCK_SKEW_MS,
  OBSERVATION_IN_FUTURE_MESSAGE,
  OVERRIDE_REQUIRED_ERROR,
  PRESCRIPTION_NOT_ACTIVE,
  observedAfter,
  type Assessment,
  type Pregnancy,
  type AssignedPatient,
  type MedicalRecord,
  type MedicationAlert,
  type Prescription,
  type PrescriptionCreate,
  type Reminder,
  type ReminderCreate,
  type MedicalFilesResponse,
} from '@careloop/shared-contracts';
import type { z } from 'zod';
import type { Db, Queryable } from '../adapters/db';
import type { FileStorage } from '../adapters/storage';
import { assessRecord, checkMedication, courseDaysIn, lastDayOf, uncodedDrug } from '../clinical';
import { isoDate, localDateTime } from '../clinical/age';
import { assessmentContextOf, pregnancyOf, setPregnancyOf, summaryOf, withCurrentAssessments } from './assessments';
import type { AppDeps } from '../deps';
import { AccessDenied, HttpError } from '../lib/errors';
import { allergyEntriesFrom } from './allergy-entries';
import { assignedPatientsOf, isAssigned } from './assignments';
import { actorOf, audit, auditAll, type AuditActor, type AuditEntity } from './audit';
import {
  NOT_YOUR_PATIENT,
  PATIENT_EMAIL_UNVERIFIED,
  OWN_RECORD_ONLY,
  PATIENT_ID_REQUIRED,
  PATIENT_NOT_FOUND,
  PRESCRIPTION_NOT_FOUND,
  RECORD_NOT_FOUND,
  REMINDER_NOT_FOUND,
  tooManyReminders,
} from './messages';
import { discardDraft } from './drafts';
import { filesOf, insertPendingFile, markRejected, markStored } from './files';
import { notifierFor, notify, type Notifier } from './notifications';
import { doctorSeenBy, findDoctorRow, ownerOf, patientRowsOf, type DoctorRow, type FhirSlice, type PatientRows } from './fhir';
import type { Page } from './pagination';
import { listScope, requireAssignedDoctor, requirePrescriber, requireSee, type Caller } from './policy';
import type { PrescribingContext } from './prescribing';
import {
  findPrescription,
  listPrescriptions,
  stopPrescription,
  toPrescription,
  withPatientNames,
  writePrescription,
} from './prescriptions';
import {
  biodataOf,
  findDoctor,
  findPatient,
  findRecord,
  insertRecord,
  latestRecordsOf,
  listRecordRows,
  recentRecordsOf,
  setSummary,
  toMedicalRecord,
  type RecordInput,
} from './records';
import {
  cancelReminder,
  findPatientIdByEmail,
  insertReminder,
  REMINDER_WINDOW_MS,
  remindersCreatedSince,
  remindersOf,
  latestDeliveriesOf,
  toReminder,
} from './reminders';

/** An upload URL never used this long after it expired is given up (S3: its row becomes 'rejected'). */
const ABANDON_GRACE_MS = 60 * 60 * 1000;

export interface PageRequest {
  page: number;
  limit: number;
  patientId?: string;
}

type Log = { warn(obj: object, msg: string): void };

/** What a prescribing check read and found (GET /drug-alerts). */
export interface MedicationCheck {
  alerts: MedicationAlert[];
  /** the allergy substances checked, on file and typed */
  allergies: string[];
  /** the drug of every prescription still active (not stopped, not past its last day) */
  activeMedications: string[];
  /** drug texts not recognised (the drug checked, or an active medication): not checked for them */
  uncoded: string[];
  /** how many lesser alerts the cap left out */
  omitted: number;
}

/** The audit detail of an override: the reason, and what the stop alerts were about. */
export function overrideDetail(reason: string, stops: MedicationAlert[]): string {
  const substances = [...new Set(stops.map((a) => a.substance))].join(', ');
  return `${reason} (stop alert: ${substances})`;
}

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
    /** the clinic's IANA time zone (CLINIC_TIME_ZONE): dates of admission and ages */
    private readonly clinicTimeZone?: string,
    /** tells the patient of a new record or prescription (none: nobody is told) */
    private readonly notifier?: Notifier,
  ) {
    this.caller = { accountId: actor.actorId, role: actor.actorRole };
  }

  /** Today on the clinic's calendar: a prescription is active through its last day. */
  private get today(): string {
    return isoDate(this.actor.at, this.clinicTimeZone);
  }

  // --- FHIR (api/src/fhir maps these rows; api/src/modules/fhir serves them) ----------------------

  /**
   * What a FHIR answer is made from of one patient (`slice`: every row of some kinds, or one row),
   * if the caller may see them (else 404 `notFound`, as for a missing id), each record's assessment
   * current (withCurrentAssessments). Audited like the app's own reads of the same data, in the
   * same transaction: `audited` lists the entities returned (one list row each), or names the one
   * row a read by id returns (a read row).
   */
  async fhirRecordOf(
    patientId: string,
    slice: FhirSlice,
    audited: AuditEntity[] | { entity: AuditEntity; entityId: string },
    notFound = PATIENT_NOT_FOUND,
  ): Promise<PatientRows> {
    return this.db.transaction(async (tx) => {
      await requireSee(tx, this.caller, patientId, notFound);
      const rows = await patientRowsOf(tx, patientId, slice);
      if (!rows) throw new HttpError(404, notFound);
      if (Array.isArray(audited)) for (const entity of audited) await this.audit(tx, 'list', entity, patientId);
      else await this.audit(tx, 'read', audited.entity, patientId, audited.entityId);
      // the one stored assessment (and summary), brought up to date in this read: FHIR and the PDF
      // export it as it is now, never an older one nor their own (hazard H26)
      return { ...rows, records: await withCurrentAssessments(tx, rows.records, this.actor.at) };
    });
  }

  /** The patient a record, prescription, allergy entry or file belongs to; 404 `notFound` if none. */
  async fhirOwnerOf(kind: 'record' | 'prescription' | 'allergy' | 'file', id: string, notFound: string): Promise<string> {
    const patientId = await ownerOf(this.db, kind, id);
    if (!patientId) throw new HttpError(404, notFound);
    return patientId;
  }

  /**
   * A doctor's public card (FHIR Practitioner): the doctor themself, a patient they are assigned
   * to or wrote for, or a doctor who shares such a patient; 404 `notFound` for anyone else.
   */
  async fhirDoctor(doctorId: string, notFound: string): Promise<DoctorRow> {
    const doctor = await findDoctorRow(this.db, doctorId);
    if (!doctor) throw new HttpError(404, notFound);
    const read = async () => {
      await audit(this.db, { ...this.actor, action: 'read', entity: 'account', entityId: doctorId });
      return doctor;
    };
    if (this.caller.role === 'doctor' && doctorId === this.caller.accountId) return read();
    const patientsOfCaller =
      this.caller.role === 'patient'
        ? [this.caller.accountId]
        : (await assignedPatientsOf(this.db, this.caller.accountId)).map((p) => p.patient);
    for (const patientId of patientsOfCaller) if (await doctorSeenBy(this.db, doctorId, patientId)) return read();
    throw new HttpError(404, notFound);
  }

  // --- medical records -------------------------------------------------------------------------

  /**
   * Doctor, assigned patient: the record (biodata filled from the profile) and the prescribing
   * check of its treatment's drug (this record's allergy note with those on file). A stop alert
   * without an override reason answers 409 and writes nothing; so does an observation time later
   * than now (in the clinic's time zone, a few minutes' clock skew allowed) with a 400.
   */
  async createRecord(
    patientId: string,
    input: RecordInput,
  ): Promise<{ record: MedicalRecord; alerts: MedicationAlert[]; assessment: Assessment }> {
    const latest = localDateTime(new Date(this.actor.at.getTime() + OBSERVATION_CLOCK_SKEW_MS), this.clinicTimeZone);
    if (observedAfter(input.examination.generalPhysicalExamination.observedAt, latest))
      throw new HttpError(400, OBSERVATION_IN_FUTURE_MESSAGE);
    const created = await this.db.transaction(async (tx) => {
      const context = await requirePrescriber(tx, this.caller, patientId, this.today);
      const patient = await findPatient(tx, patientId);
      const doctor = await findDoctor(tx, this.caller.accountId);
      if (!patient) throw new HttpError(404, PATIENT_NOT_FOUND);
      if (!doctor) throw new HttpError(401, 'Unauthorized');
      const { alerts } = prescribingCheck(context, input.treatment.prescribedDrug, [input.medicalHistory.allergies]);
      const stops = requireOverrideReason(alerts, input.overrideReason);
      const row = await insertRecord(tx, {
        patientId,
        doctorId: doctor.id,
        input,
        biodata: biodataOf(patient, input.medicalHistory.biodata.modeOfAdmission, this.actor.at, this.clinicTimeZone),
        doctorInfo: { doctorName: doctor.name, doctorEmail: doctor.email },
        now: this.actor.at,
      });
      await this.audit(tx, 'create', 'medical_record', patientId, row.id);
      await discardDraft(tx, doctor.id, 'medical-record', patientId);
      if (stops.length) await this.auditOverride(tx, 'medical_record', patientId, row.id, input.overrideReason!, stops);
      // assessed on write, at the version the insert moved the patient to (its allergy note counts)
      const [assessed] = await withCurrentAssessments(tx, [row], this.actor.at);
      await this.tellPatient(tx, 'new-record', patientId, row.id);
      return { record: toMedicalRecord(assessed), alerts, assessment: assessed.assessment! };
    });
    this.notifier?.flush();
    return created;
  }

  // No transaction around a list: its audit rows are written by the very statement that reads the
  // page (readPage), so the read and its rows succeed or fail together. Saves BEGIN/COMMIT.
  async listRecords(q: PageRequest): Promise<Page<MedicalRecord>> {
    const scope = await listScope(this.db, this.caller, q.patientId);
    const { items, ...page } = await listRecordRows(this.db, {
      scope,
      page: q.page,
      limit: q.limit,
      audit: { ...this.actor, entity: 'medical_record' },
    });
    return { items: (await withCurrentAssessments(this.db, items, this.actor.at)).map(toMedicalRecord), ...page };
  }

  async readRecord(id: string): Promise<MedicalRecord> {
    return this.db.transaction(async (tx) => {
      const row = await findRecord(tx, id);
      if (!row) throw new HttpError(404, RECORD_NOT_FOUND);
      await requireSee(tx, this.caller, row.patientId, RECORD_NOT_FOUND);
      await this.audit(tx, 'read', 'medical_record', row.patientId, row.id);
      const [current] = await withCurrentAssessments(tx, [row], this.actor.at);
      return toMedicalRecord(current);
    });
  }

  /**
   * The records a vital-sign trend is drawn from: the patient's own (patientId omitted or theirs),
   * or an assigned patient's (a doctor must name the patient). Audited as a list of records.
   */
  async recordsForTrend(
    asked: string | undefined,
    limit: number,
  ): Promise<{ patientId: string; records: MedicalRecord[]; truncated: boolean }> {
    if (this.caller.role === 'doctor' && asked === undefined) throw new HttpError(400, PATIENT_ID_REQUIRED);
    return this.db.transaction(async (tx) => {
      const scope = await listScope(tx, this.caller, asked);
      if (!('patientId' in scope)) throw new HttpError(400, PATIENT_ID_REQUIRED);
      const { records, truncated } = await latestRecordsOf(tx, scope.patientId, limit);
      await this.audit(tx, 'list', 'medical_record', scope.patientId);
      return { patientId: scope.patientId, records, truncated };
    });
  }

  /**
   * The deterministic summary of a record (assigned doctor), from its assessment computed afresh and
   * the patient's prescriptions and allergies (the notes on file, shown as written, and the entries
   * every alert is computed from). Audited when the summary is saved (saveSummary): computing it
   * writes nothing.
   */
  async summaryInputs(recordId: string) {
    const row = await findRecord(this.db, recordId);
    if (!row) throw new HttpError(404, RECORD_NOT_FOUND);
    await requireAssignedDoctor(this.db, this.caller, row.patientId, RECORD_NOT_FOUND);
    const context = await assessmentContextOf(this.db, row.patientId, this.actor.at);
    const assessed = { ...row, assessment: assessRecord(toMedicalRecord(row), context) };
    return { record: toMedicalRecord(assessed), computed: await summaryOf(this.db, assessed, context) };
  }

  /** Stores the summary with when and from what it was generated, and the assessment it shows. */
  async saveSummary(record: MedicalRecord, summary: string, rewrittenBy: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      await setSummary(tx, record._id, {
        summary,
        assessment: record.assessment,
        summaryInfo: {
          generatedAt: this.actor.at.toISOString(),
          contextVersion: record.assessment.contextVersion,
          rewrittenBy,
          regeneratedOutOfDate: false,
          previousGeneratedAt: null,
        },
      });
      await this.audit(tx, 'summarize', 'medical_record', record.patient, record._id);
    });
  }

  /**
   * Doctor: every assigned patient with their latest and previous record (newest first), for the
   * worklist. A list row of medical_record for each patient whose records it returns.
   */
  async worklistRecords(): Promise<{ patient: AssignedPatient; records: MedicalRecord[] }[]> {
    if (this.caller.role !== 'doctor') return [];
    return this.db.transaction(async (tx) => {
      const patients = await recentRecordsOf(tx, this.caller.accountId);
      await this.auditList(
        tx,
        'medical_record',
        patients.filter((p) => p.records.length > 0).map((p) => p.patient.patient),
      );
      const current = await withCurrentAssessments(
        tx,
        patients.flatMap((p) => p.records),
        this.actor.at,
      );
      const byId = new Map(current.map((r) => [r.id, toMedicalRecord(r)]));
      return patients.map((p) => ({ patient: p.patient, records: p.records.map((r) => byId.get(r.id)!) }));
    });
  }

  // --- pregnancy ------------------------------------------------------------------------------

  /** The patient, or an assigned doctor: the pregnancy status ("unknown" until a doctor sets it). */
  async readPregnancy(patientId: string): Promise<Pregnancy> {
    return this.db.transaction(async (tx) => {
      await requireSee(tx, this.caller, patientId);
      const pregnancy = await pregnancyOf(tx, patientId);
      await this.audit(tx, 'read', 'pregnancy', patientId);
      return pregnancy;
    });
  }

  /**
   * Assigned doctor: sets it. The patient's clinical version moves on (a trigger), so every record's
   * assessment is computed again with it on its next read.
   */
  async setPregnancy(patientId: string, pregnancy: Pregnancy): Promise<Pregnancy> {
    return this.db.transaction(async (tx) => {
      await requireAssignedDoctor(tx, this.caller, patientId);
      const stored = { status: pregnancy.status, gestationWeeks: pregnancy.gestationWeeks ?? null };
      await setPregnancyOf(tx, patientId, stored);
      await this.audit(tx, 'update', 'pregnancy', patientId);
      return stored;
    });
  }

  // --- prescriptions ---------------------------------------------------------------------------

  /**
   * Doctor, assigned patient: the prescription and its prescribing check (the typed allergies with
   * those on file; the prescriptions already on file as active medications). A stop alert without
   * an override reason answers 409 and writes nothing.
   */
  async createPrescription(
    patientId: string,
    body: z.output<typeof PrescriptionCreate>,
  ): Promise<{ prescription: Prescription; alerts: MedicationAlert[] }> {
    const today = this.today;
    if (body.endDate !== undefined && body.endDate < today) throw new HttpError(400, END_DATE_PAST);
    // One read, then one write that writes nothing if the assignment ended in between
    // (writePrescription), in one transaction with its draft's deletion and the patient's notification.
    const context = await requirePrescriber(this.db, this.caller, patientId, today);
    const { alerts, uncoded } = prescribingCheck(context, body.prescribedDrug, body.allergies);
    const stops = requireOverrideReason(alerts, body.overrideReason);
    const days =
      body.durationDays ?? (body.endDate || body.longTerm ? undefined : courseDaysIn(`${body.dosageFrequency} ${body.dosage}`));
    const write = {
      id: randomUUID(),
      patientId,
      doctorId: this.caller.accountId,
      prescribedDrug: body.prescribedDrug,
      dosage: body.dosage,
      administrationRoute: body.administrationRoute,
      dosageFrequency: body.dosageFrequency,
      allergies: body.allergies,
      assignedBy: context.doctorName,
      endsOn: body.endDate ?? (days ? lastDayOf(today, days) : null),
      longTerm: body.longTerm === true,
      override: stops.length
        ? { reason: body.overrideReason!, by: context.doctorName, at: this.actor.at.toISOString(), alerts: stops }
        : null,
      uncoded,
      actor: this.actor,
      overrideDetail: stops.length ? overrideDetail(body.overrideReason!, stops) : null,
    };
    const row = await this.db.transaction(async (tx) => {
      const written = await writePrescription(tx, write);
      if (written) {
        await discardDraft(tx, this.caller.accountId, 'prescription', patientId);
        await this.tellPatient(tx, 'new-prescription', patientId, written.id);
      }
      return written;
    });
    this.notifier?.flush();
    if (!row) throw new HttpError(404, PATIENT_NOT_FOUND);
    return { prescription: toPrescription(row, context.patientName, today), alerts };
  }

  async listPrescriptions(q: PageRequest): Promise<Page<Prescription>> {
    const scope = await listScope(this.db, this.caller, q.patientId);
    const audit = { ...this.actor, entity: 'prescription' as const };
    return listPrescriptions(this.db, { scope, page: q.page, limit: q.limit, audit }, this.today);
  }

  async readPrescription(id: string): Promise<Prescription> {
    return this.db.transaction(async (tx) => {
      const row = await findPrescription(tx, id);
      if (!row) throw new HttpError(404, PRESCRIPTION_NOT_FOUND);
      await requireSee(tx, this.caller, row.patientId, PRESCRIPTION_NOT_FOUND);
      await this.audit(tx, 'read', 'prescription', row.patientId, row.id);
      const [prescription] = await withPatientNames(tx, [row], this.today);
      return prescription;
    });
  }

  /**
   * A doctor assigned to the patient stops an active prescription, with a reason: from now on it is
   * no active medication. Audited ('update', the reason as detail). 409 when already stopped or ended.
   */
  async stopPrescription(id: string, reason: string): Promise<Prescription> {
    return this.db.transaction(async (tx) => {
      const existing = await findPrescription(tx, id);
      if (!existing) throw new HttpError(404, PRESCRIPTION_NOT_FOUND);
      await requireAssignedDoctor(tx, this.caller, existing.patientId, PRESCRIPTION_NOT_FOUND);
      const doctor = await findDoctor(tx, this.caller.accountId);
      const today = this.today;
      const row = await stopPrescription(tx, id, { at: this.actor.at, by: doctor?.name ?? '', reason, today });
      if (!row) throw new HttpError(409, PRESCRIPTION_NOT_ACTIVE);
      await audit(tx, {
        ...this.actor,
        action: 'update',
        entity: 'prescription',
        entityId: id,
        patientId: row.patientId,
        detail: reason,
      });
      const [prescription] = await withPatientNames(tx, [row], today);
      return prescription;
    });
  }

  /**
   * Assigned doctor: the prescribing check of `drug` before Finish, against the patient's allergies
   * (on file and typed) and active medications. It reads the patient's records and prescriptions:
   * audited as a list.
   */
  async medicationCheck(patientId: string, drug: string, typed: string[]): Promise<MedicationCheck> {
    return this.db.transaction(async (tx) => {
      const check = prescribingCheck(await requirePrescriber(tx, this.caller, patientId, this.today), drug, typed);
      await this.audit(tx, 'list', 'medical_record', patientId);
      return check;
    });
  }

  // --- medical files ---------------------------------------------------------------------------

  /** The patient themself: a new pending file row; returns the storage key to upload to. */
  async createUpload(patientId: string, fileName: string): Promise<string> {
    if (this.caller.role !== 'patient' || patientId !== this.caller.accountId) throw new HttpError(403, OWN_RECORD_ONLY);
    const storageKey = `${patientId}/${randomUUID()}.pdf`;
    // Audited when the file is stored (markStored), so a refused upload is no phantom "created".
    await insertPendingFile(this.db, { patientId, storageKey, fileName, createdAt: this.actor.at });
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
  ): Promise<MedicalFilesResponse> {
    let patientId: string;
    if (this.caller.role === 'patient') {
      if (asked !== undefined && asked !== this.caller.accountId) throw new AccessDenied(PATIENT_NOT_FOUND, asked);
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
    return {
      presignedUrl,
      fileName: rows.map((r) => r.fileName),
      // a stored row always has both (markStored sets them together)
      uploadedAt: rows.map((r) => (r.storedAt ?? r.createdAt).toISOString()),
      size: rows.map((r) => r.size ?? 0),
    };
  }

  /** S3 only: checks pending uploads of the patient (size, `%PDF-`) before anything is listed. */
  private async verifyPending(patientId: string, storage: FileStorage, opts: { maxBytes: number; ttlSeconds: number; log: Log }) {
    const pending = await filesOf(this.db, patientId, ['pending']);
    const now = this.actor.at;
    await Promise.all(
      pending.map(async (row) => {
        try {
          const result = await storage.verify(row.storageKey, { maxBytes: opts.maxBytes });
          if (result.status === 'stored') await this.db.transaction((tx) => markStored(tx, row.id, result.size, now, null));
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

  /**
   * Doctor, assigned patient: the reminder goes to the patient, not to a stored address (the runner
   * reads the patient's current e-mail), and at most `perDoctorPerHour` are created in any hour.
   */
  async createReminder(body: z.output<typeof ReminderCreate>, limits: { perDoctorPerHour: number }): Promise<Reminder> {
    return this.db.transaction(async (tx) => {
      const patient = await findPatientIdByEmail(tx, body.to);
      // 404 as for every patient the caller may not see (revoked included), and the same answer for
      // an unknown address: no account probing, no open relay.
      if (!patient) throw new HttpError(404, NOT_YOUR_PATIENT);
      if (this.caller.role !== 'doctor' || !(await isAssigned(tx, this.caller.accountId, patient.id))) {
        throw new AccessDenied(NOT_YOUR_PATIENT, patient.id);
      }
      // Counted in the creating transaction, behind a lock on the doctor's row: parallel creates
      // on any replica cannot both take the last place of the hour.
      const { count, oldest } = await remindersCreatedSince(
        tx,
        this.caller.accountId,
        new Date(this.actor.at.getTime() - REMINDER_WINDOW_MS),
      );
      if (count >= limits.perDoctorPerHour) {
        const waitMs = oldest ? oldest.getTime() + REMINDER_WINDOW_MS - this.actor.at.getTime() : REMINDER_WINDOW_MS;
        throw new HttpError(429, tooManyReminders(limits.perDoctorPerHour), Math.max(1, Math.ceil(waitMs / 1000)));
      }
      // The api is no relay to an address nobody proved (issue 11).
      if (!patient.emailVerifiedAt) throw new HttpError(409, PATIENT_EMAIL_UNVERIFIED);
      const startAt = new Date(body.startDate);
      const row = await insertReminder(tx, {
        doctorId: this.caller.accountId,
        patientId: patient.id,
        patientName: patient.name,
        subject: body.subject,
        text: body.text,
        startAt,
        intervalDays: body.intervalDays,
        status: 'scheduled',
        nextRunAt: startAt,
        createdAt: this.actor.at,
      });
      await this.audit(tx, 'create', 'reminder', patient.id, row.id);
      return toReminder(row, patient);
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
      const deliveries = await latestDeliveriesOf(
        tx,
        rows.map((r) => r.reminder.id),
      );
      return rows.map((r) =>
        toReminder(
          r.reminder,
          r.assigned ? { name: r.patientName, email: r.patientEmail } : 'access ended',
          deliveries.get(r.reminder.id),
        ),
      );
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

  // --- notifications -----------------------------------------------------------------------------

  /** The patient is told of what their doctor (the caller) just wrote, in the write's transaction. */
  private async tellPatient(tx: Queryable, kind: 'new-record' | 'new-prescription', patientId: string, entityId: string) {
    if (!this.notifier) return;
    await notify(tx, this.notifier, {
      to: { role: 'patient', accountId: patientId },
      kind,
      about: { role: 'doctor', accountId: this.caller.accountId },
      entityId,
      at: this.actor.at,
    });
  }

  // --- audit -----------------------------------------------------------------------------------

  /** The doctor proceeded past stop alerts: in the create's transaction, entity and id the new row's. */
  private auditOverride(
    tx: Queryable,
    entity: 'prescription' | 'medical_record',
    patientId: string,
    entityId: string,
    reason: string,
    stops: MedicationAlert[],
  ) {
    return audit(tx, { ...this.actor, action: 'override', entity, entityId, patientId, detail: overrideDetail(reason, stops) });
  }

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
    const rows = [...new Set(patientIds)].map((patientId) => ({ ...this.actor, action: 'list' as const, entity, patientId }));
    await auditAll(tx, rows);
  }
}

/** The one prescribing check of every path (create record, prescribe, drug-alerts), on what its context read. */
function prescribingCheck(context: PrescribingContext, drug: string, typed: string[]): MedicationCheck {
  const entries = allergyEntriesFrom(context.allergyRows, context.notes, typed);
  const check = checkMedication(drug, { allergies: entries, activeMedications: context.drugs });
  const allergies = [...new Set(entries.map((e) => e.substance.text))];
  // an active medication the vocabulary does not know is said even when no drug is asked about yet
  const uncoded = [...check.uncoded, ...context.drugs.filter(uncodedDrug)];
  return {
    alerts: check.alerts,
    omitted: check.omitted,
    allergies,
    activeMedications: context.drugs,
    uncoded: [...new Set(uncoded.map((d) => d.trim()))],
  };
}

/**
 * The stop alerts a create proceeds past: none, or all of them with a reason given. A stop with no
 * reason is a 409 carrying every alert (the form shows them and asks for the reason); thrown
 * before anything is written.
 */
function requireOverrideReason(alerts: MedicationAlert[], reason: string | undefined): MedicationAlert[] {
  const stops = alerts.filter((a) => a.severity === 'stop');
  if (stops.length && !reason) throw new HttpError(409, OVERRIDE_REQUIRED_ERROR, undefined, { alerts });
  return stops;
}

/**
 * The access of a guarded request's caller (its session), timed by the app's clock; with the app's
 * secret box and web origin, what it writes for a patient notifies them (notifications.ts).
 */
export function accessFor(
  deps: Pick<AppDeps, 'db' | 'clock'> &
    Partial<Pick<AppDeps, 'secretBox'>> & {
      config?: Pick<AppDeps['config'], 'clinicTimeZone'> & Partial<Pick<AppDeps['config'], 'webOrigin'>>;
    },
  request: FastifyRequest,
): PatientAccess {
  const notifier =
    deps.secretBox && deps.config?.webOrigin !== undefined
      ? notifierFor({ secretBox: deps.secretBox, config: { webOrigin: deps.config.webOrigin } }, request.server)
      : undefined;
  return new PatientAccess(deps.db.db, actorOf(request, deps.clock), deps.config?.clinicTimeZone, notifier);
}
