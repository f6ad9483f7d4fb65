import { eq, inArray } from 'drizzle-orm';
import type { Pregnancy } from '@careloop/shared-contracts';
import type { Queryable } from '../adapters/db';
import { assessRecord, buildSummary, type AssessmentContext } from '../clinical';
import { isoDate } from '../clinical/age';
import { medicalRecords, patients } from '../db/schema';
import { allergyEntriesFor } from './allergy-entries';
import { prescribedDrugsOf } from './prescriptions';
import { prescriptionsForSummary, recordedAllergies, toMedicalRecord, type RecordRow } from './records';

/*
 * A record's assessment and summary are computed when it is written and kept with the patient's
 * clinical version they read (patients.clinical_version, moved on by triggers whenever the date of
 * birth, pregnancy, an allergy entry, a prescription or a new record changes: migration 0011). A
 * reader that finds an older version recomputes them from the current inputs and stores them
 * before answering, so no view ever shows an assessment or a summary that its inputs have outgrown.
 */

interface PatientClinical {
  dob: string | null;
  pregnancy: Pregnancy | null;
  clinicalVersion: number;
}

async function patientClinicalOf(db: Queryable, ids: string[]): Promise<Map<string, PatientClinical>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: patients.id, dob: patients.dob, pregnancy: patients.pregnancy, clinicalVersion: patients.clinicalVersion })
    .from(patients)
    .where(inArray(patients.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * An assessment has no clinic calendar of its own: a course counts as active until its last day is
 * over everywhere (UTC−12), so an interaction is never dropped early. Passing that day needs no write,
 * so a stored assessment may keep an ended course's alert until the patient's next change: the safe side.
 */
const DAY_BEHIND_MS = 12 * 3600_000;

/**
 * Everything an assessment reads about the patient, at their version now. The version is read
 * FIRST: a write landing while the rest is read makes the result older than the patient, so it is
 * recomputed on the next read — never newer than what it read.
 */
export async function assessmentContextOf(
  db: Queryable,
  patientId: string,
  now: Date,
  known?: PatientClinical,
): Promise<AssessmentContext> {
  const patient = known ?? (await patientClinicalOf(db, [patientId])).get(patientId);
  return {
    dob: patient?.dob ?? null,
    pregnancy: patient?.pregnancy ?? null,
    contextVersion: patient?.clinicalVersion ?? 0,
    allergyEntries: await allergyEntriesFor(db, patientId),
    otherDrugs: await prescribedDrugsOf(db, patientId, isoDate(new Date(now.getTime() - DAY_BEHIND_MS))),
    computedAt: now,
  };
}

/** The deterministic summary of a record in its context (the model rewrite is the caller's). */
export async function summaryOf(db: Queryable, row: RecordRow, context: AssessmentContext) {
  const record = toMedicalRecord(row);
  return buildSummary(record, {
    prescriptions: await prescriptionsForSummary(db, row.patientId),
    allergiesOnFile: await recordedAllergies(db, row.patientId),
    allergyEntries: context.allergyEntries,
    assessment: row.assessment!,
  });
}

const isCurrent = (version: number | undefined, at: number | undefined) => version !== undefined && at === version;

/**
 * The rows with an assessment (and, where one was generated, a summary) at their patient's
 * current clinical version: out-of-date ones are recomputed and stored. A stale summary is replaced
 * by the deterministic one and says so (`replacedOutOfDate`: when the earlier one was generated).
 */
export async function withCurrentAssessments(db: Queryable, rows: RecordRow[], now: Date): Promise<RecordRow[]> {
  if (!rows.length) return rows;
  const versions = await patientClinicalOf(db, [...new Set(rows.map((r) => r.patientId))]);
  const contexts = new Map<string, AssessmentContext>();
  const out: RecordRow[] = [];
  for (const row of rows) {
    const patient = versions.get(row.patientId);
    const assessmentFresh = !!row.assessment && isCurrent(patient?.clinicalVersion, row.assessment.contextVersion);
    const summaryFresh = row.summary === null || isCurrent(patient?.clinicalVersion, row.summaryInfo?.contextVersion);
    if (assessmentFresh && summaryFresh) {
      out.push(row);
      continue;
    }
    let context = contexts.get(row.patientId);
    if (!context) contexts.set(row.patientId, (context = await assessmentContextOf(db, row.patientId, now, patient)));
    let next: RecordRow = row;
    if (!assessmentFresh) next = { ...next, assessment: assessRecord(toMedicalRecord(row), context) };
    if (!summaryFresh) {
      const summary = await summaryOf(db, next, context);
      next = {
        ...next,
        summary: summary.markdown,
        summaryInfo: {
          generatedAt: now.toISOString(),
          contextVersion: context.contextVersion,
          rewrittenBy: null,
          regeneratedOutOfDate: true,
          previousGeneratedAt: row.summaryInfo?.generatedAt ?? null,
        },
      };
    }
    await db
      .update(medicalRecords)
      .set({ assessment: next.assessment, summary: next.summary, summaryInfo: next.summaryInfo })
      .where(eq(medicalRecords.id, row.id));
    out.push(next);
  }
  return out;
}

/** The patient's pregnancy status; "unknown" until a doctor sets it. */
export async function pregnancyOf(db: Queryable, patientId: string): Promise<Pregnancy> {
  const patient = (await patientClinicalOf(db, [patientId])).get(patientId);
  return patient?.pregnancy ?? { status: 'unknown', gestationWeeks: null };
}

export async function setPregnancyOf(db: Queryable, patientId: string, pregnancy: Pregnancy): Promise<void> {
  await db.update(patients).set({ pregnancy }).where(eq(patients.id, patientId));
}
