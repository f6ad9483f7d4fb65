import type { Queryable } from '../adapters/db';
import { AccessDenied } from '../lib/errors';
import { accessEnded, isAssigned } from './assignments';
import { PATIENT_NOT_FOUND, YOUR_ACCESS_ENDED } from './messages';
import type { ListScope } from './pagination';
import type { Caller } from './caller';
import { prescribingContextOf, type PrescribingContext } from './prescribing';

/** Who is asking: the account of a request's session (or of a signed URL's issuer). */
export type { Caller };

/**
 * THE rule of who may see a patient's data: the patient themself, or a doctor assigned to them.
 * Everything else is treated as if the patient did not exist.
 */
export async function maySee(db: Queryable, caller: Caller, patientId: string): Promise<boolean> {
  if (caller.role === 'patient') return caller.accountId === patientId;
  return isAssigned(db, caller.accountId, patientId);
}

/**
 * Why the caller may not see the patient: 404 `notFound`, as if the patient did not exist — except
 * for a doctor whose own assignment to them ended, who is told so (403): they knew the patient, and
 * "not found" would hide that their access was taken away.
 */
export async function refusal(
  db: Queryable,
  caller: Caller,
  patientId: string,
  notFound = PATIENT_NOT_FOUND,
): Promise<AccessDenied> {
  if (caller.role === 'doctor' && (await accessEnded(db, caller.accountId, patientId)))
    return new AccessDenied(YOUR_ACCESS_ENDED, patientId, 403);
  return new AccessDenied(notFound, patientId);
}

/** 404 `notFound` unless the caller may see the patient (never reveals that the id exists; the refusal is audited). */
export async function requireSee(db: Queryable, caller: Caller, patientId: string, notFound = PATIENT_NOT_FOUND): Promise<void> {
  if (!(await maySee(db, caller, patientId))) throw await refusal(db, caller, patientId, notFound);
}

/** 404 unless the caller is a doctor assigned to the patient (writes are doctors' only). */
export async function requireAssignedDoctor(
  db: Queryable,
  caller: Caller,
  patientId: string,
  notFound = PATIENT_NOT_FOUND,
): Promise<void> {
  if (caller.role !== 'doctor' || !(await isAssigned(db, caller.accountId, patientId)))
    throw await refusal(db, caller, patientId, notFound);
}

/**
 * requireAssignedDoctor, answering with what the prescribing check reads (PrescribingContext): the
 * check and the assignment in one statement, and nothing of the patient read unless assigned.
 */
export async function requirePrescriber(
  db: Queryable,
  caller: Caller,
  patientId: string,
  today: string,
): Promise<PrescribingContext> {
  const context = caller.role === 'doctor' ? await prescribingContextOf(db, caller.accountId, patientId, today) : undefined;
  if (!context) throw await refusal(db, caller, patientId);
  return context;
}

/**
 * Whose rows a list shows. A patient: their own (a patientId other than theirs is "not found").
 * A doctor: one assigned patient when patientId is given (else 404), all assigned patients otherwise.
 */
export async function listScope(db: Queryable, caller: Caller, patientId?: string): Promise<ListScope> {
  if (caller.role === 'patient') {
    if (patientId !== undefined && patientId !== caller.accountId) throw new AccessDenied(PATIENT_NOT_FOUND, patientId);
    return { patientId: caller.accountId };
  }
  if (patientId === undefined) return { assignedTo: caller.accountId };
  await requireAssignedDoctor(db, caller, patientId);
  return { patientId };
}
