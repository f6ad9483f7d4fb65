import { and, asc, eq, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { AssignedDoctor, AssignedPatient } from '@careloop/shared-contracts';
import type { Queryable } from '../adapters/db';
import { qualified } from '../db/qualified';
import { assignments, auditLog, doctors, patients, reminders } from '../db/schema';
import { audit, type AuditActor } from './audit';
import { notify, type Notifier } from './notifications';
import { registrationColumns, registrationJson, toRegistrationStatus } from './registration';

/*
 * Assignments: which doctor is connected to which patient (made when a connection request is
 * accepted). THIS IS THE ONE FACT EVERY DOCTOR–PATIENT PERMISSION CHECK READS. Every later module
 * that lets a doctor see or change something of a patient (records, prescriptions, files,
 * summaries, reminders, …) must call isAssigned() below (inside a statement: assignedCondition())
 * — never query the table itself, never trust a list sent by the client, and never infer the link
 * from connection requests.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Malformed ids are simply not assigned (and never reach the database as a uuid cast error). */
export const isUuid = (id: string) => UUID.test(id);

/** True when the doctor and the patient are connected. Malformed ids are simply not assigned. */
/** The doctor was assigned to the patient once, and it ended (the audit log keeps every end). */
export async function accessEnded(db: Queryable, doctorId: string, patientId: string): Promise<boolean> {
  if (!isUuid(doctorId) || !isUuid(patientId)) return false;
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.patientId, patientId),
        eq(auditLog.entity, 'assignment'),
        eq(auditLog.action, 'revoke'),
        eq(auditLog.entityId, doctorId),
      ),
    )
    .limit(1);
  return rows.length === 1;
}

export async function isAssigned(db: Queryable, doctorId: string, patientId: string): Promise<boolean> {
  if (!isUuid(doctorId) || !isUuid(patientId)) return false;
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(assignments)
    .where(and(eq(assignments.doctorId, doctorId), eq(assignments.patientId, patientId)))
    .limit(1);
  return rows.length === 1;
}

/**
 * isAssigned as a condition inside a statement: a write guarded by it writes nothing once the pair
 * is no longer connected, however soon after its check the assignment ended (prescriptions.ts).
 */
export function assignedCondition(doctorId: string | Placeholder, patientId: string | Placeholder): SQL {
  const a = assignments;
  return sql`exists (select 1 from ${a} where ${qualified(a.doctorId)} = ${doctorId}::uuid and ${qualified(a.patientId)} = ${patientId}::uuid)`;
}

/**
 * The doctor's patients, by name, with date of birth and e-mail so two of one name are told apart:
 * Doctor.assignedPatients. Only assigned patients are listed — that join is the permission.
 */
export async function assignedPatientsOf(db: Queryable, doctorId: string): Promise<AssignedPatient[]> {
  return db
    .select({ patient: patients.id, name: patients.name, DOB: patients.dob, email: patients.email })
    .from(assignments)
    .innerJoin(patients, eq(patients.id, assignments.patientId))
    .where(eq(assignments.doctorId, doctorId))
    .orderBy(asc(patients.name), asc(patients.id));
}

/**
 * assignedDoctorsOf as a JSON subquery on a patient id column, so a profile is read in the same
 * statement as its row (GET /patient/me: one round trip). Same rows, same order.
 */
export function assignedDoctorsJson(patientId: AnyColumn): SQL<AssignedDoctor[]> {
  const [d, a] = [qualified(doctors.id), qualified(assignments.doctorId)];
  const name = qualified(doctors.name);
  return sql<AssignedDoctor[]>`coalesce((
    select json_agg(json_build_object('doctor', ${d}, 'name', ${name}, 'registration', ${registrationJson()}) order by ${name}, ${d})
    from ${assignments} inner join ${doctors} on ${d} = ${a}
    where ${qualified(assignments.patientId)} = ${qualified(patientId)}), '[]'::json)`;
}

/** The patient's doctors, by name: Patient.assignedDoctors. */
export async function assignedDoctorsOf(db: Queryable, patientId: string): Promise<AssignedDoctor[]> {
  const rows = await db
    .select({ doctor: doctors.id, name: doctors.name, ...registrationColumns })
    .from(assignments)
    .innerJoin(doctors, eq(doctors.id, assignments.doctorId))
    .where(eq(assignments.patientId, patientId))
    .orderBy(asc(doctors.name), asc(doctors.id));
  return rows.map(({ doctor, name, ...registration }) => ({ doctor, name, registration: toRegistrationStatus(registration) }));
}

/** Connects the pair; connecting an already connected pair changes nothing. */
export async function assign(db: Queryable, doctorId: string, patientId: string, now: Date): Promise<void> {
  await db.insert(assignments).values({ doctorId, patientId, createdAt: now }).onConflictDoNothing();
}

/**
 * Ends the pair's assignment — a patient ending a doctor's access, or a doctor releasing a
 * patient — in ONE transaction with its audit row. The doctor's scheduled reminders to the patient
 * are cancelled with it (audited as their cancelling): nothing the doctor set up keeps reaching
 * the patient. Connection requests are left as they are, so the pair may connect again later.
 * A patient ending a doctor's access notifies the doctor, naming the patient as the doctor knew them
 * (`notifier`; in the same transaction).
 * false when the pair was not connected (or an id is malformed): the caller answers 404.
 */
export async function revokeAssignment(
  db: Queryable,
  actor: AuditActor,
  doctorId: string,
  patientId: string,
  notifier?: Notifier,
): Promise<boolean> {
  if (!isUuid(doctorId) || !isUuid(patientId)) return false;
  const ended = await db.transaction(async (tx) => {
    const ended = await tx
      .delete(assignments)
      .where(and(eq(assignments.doctorId, doctorId), eq(assignments.patientId, patientId)))
      .returning({ doctorId: assignments.doctorId });
    if (ended.length === 0) return false;
    await audit(tx, { ...actor, action: 'revoke', entity: 'assignment', entityId: doctorId, patientId });
    const cancelled = await tx
      .update(reminders)
      .set({ status: 'cancelled', nextRunAt: null })
      .where(and(eq(reminders.doctorId, doctorId), eq(reminders.patientId, patientId), eq(reminders.status, 'scheduled')))
      .returning({ id: reminders.id });
    for (const r of cancelled) {
      await audit(tx, { ...actor, action: 'update', entity: 'reminder', entityId: r.id, patientId });
    }
    if (notifier && actor.actorRole === 'patient') {
      await notify(tx, notifier, {
        to: { role: 'doctor', accountId: doctorId },
        kind: 'access-ended',
        about: { role: 'patient', accountId: patientId, withBirthDate: true },
        at: actor.at,
      });
    }
    return true;
  });
  notifier?.flush();
  return ended;
}

/**
 * `SELECT patient_id FROM assignments WHERE doctor_id = …` as a subquery, for lists of the
 * doctor's patients' data (records, prescriptions): the same fact isAssigned reads, kept here so
 * no other module queries the table itself.
 */
export function assignedPatientIds(doctorId: string | Placeholder): SQL {
  return sql`select ${assignments.patientId} from ${assignments} where ${assignments.doctorId} = ${doctorId}`;
}
