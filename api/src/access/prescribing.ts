import { sql } from 'drizzle-orm';
import { preparedOnce, type Queryable } from '../adapters/db';
import { qualified } from '../db/qualified';
import { allergyIntolerances, doctors, patients } from '../db/schema';
import {
  ALLERGY_ENTRY_COLUMNS,
  allergyNoteRows,
  toAllergyNotes,
  type AllergyEntryRow,
  type AllergyNote,
  type AllergyNoteRow,
} from './allergy-entries';
import { assignedCondition, isUuid } from './assignments';
import { prescribedDrugRows } from './prescriptions';
import { distinctNotes } from './records';

/**
 * What a prescribing check reads, and who writes the prescription: the patient's structured
 * allergy entries, allergy notes and drugs on file, the doctor's and the patient's names — read only
 * when the doctor is assigned to the patient (nothing at all otherwise: undefined).
 */
export interface PrescribingContext {
  doctorName: string;
  patientName: string;
  /** structured entries, newest first */
  allergyRows: AllergyEntryRow[];
  /** every distinct allergy note of the patient's records and prescriptions, oldest first */
  notes: AllergyNote[];
  /** the drug of every prescription still active today, distinct, oldest first (the active medications) */
  drugs: string[];
}

/**
 * The prescribing context in ONE prepared statement (issue 17: three reads and the assignment check
 * were four round trips on every prescription). The parts are the same SQL the standalone reads use
 * (allergyNoteRows, prescribedDrugRows), aggregated as JSON in their own order.
 */
export async function prescribingContextOf(
  db: Queryable,
  doctorId: string,
  patientId: string,
  today: string,
): Promise<PrescribingContext | undefined> {
  if (!isUuid(doctorId) || !isUuid(patientId)) return undefined;
  const statement = preparedOnce(db, 'prescribing_context', () => {
    const [doctor, patient, day] = [sql.placeholder('doctorId'), sql.placeholder('patientId'), sql.placeholder('today')];
    const a = allergyIntolerances;
    const entry = sql.join(
      Object.entries(ALLERGY_ENTRY_COLUMNS).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${qualified(column)}`),
      sql`, `,
    );
    return db
      .select({
        doctorName: sql<string>`c.doctor_name`,
        patientName: sql<string>`c.patient_name`,
        allergyRows: sql<AllergyEntryRow[]>`c.allergy_rows`,
        notes: sql<AllergyNoteRow[]>`c.notes`,
        drugs: sql<string[]>`c.drugs`,
      })
      .from(
        sql`(select ${qualified(doctors.name)} as doctor_name, ${qualified(patients.name)} as patient_name,
          coalesce((select json_agg(json_build_object(${entry}) order by ${qualified(a.recordedAt)} desc, ${qualified(a.id)} asc)
            from ${a} where ${qualified(a.patientId)} = ${patient}::uuid), '[]'::json) as allergy_rows,
          coalesce((select json_agg(n order by n.note) from (${allergyNoteRows(patient)}) n), '[]'::json) as notes,
          coalesce((select json_agg(r.drug order by r.at, r.id) from (${prescribedDrugRows(patient, day)}) r), '[]'::json) as drugs
        from ${doctors}, ${patients}
        where ${qualified(doctors.id)} = ${doctor}::uuid and ${qualified(patients.id)} = ${patient}::uuid
          and ${assignedCondition(doctor, patient)}) c`,
      )
      .prepare('prescribing_context');
  });
  const [row] = await statement.execute({ doctorId, patientId, today });
  if (!row) return undefined;
  return { ...row, notes: toAllergyNotes(row.notes), drugs: distinctNotes(row.drugs) };
}
