import type { Bundle, BundleEntry, BundleLink, Resource } from '@medplum/fhirtypes';
import { FHIR_TYPES, type FhirEverythingQuery, type FhirType } from '@careloop/shared-contracts';
import type { z } from 'zod';
import { type AuditEntity, type PatientAccess, type PatientRows } from '../access';
import { isoDate } from '../clinical/age';
import { HttpError } from '../lib/errors';
import {
  toAllergyIntolerance,
  toComposition,
  toDocumentReference,
  toMedicationRequest,
  toNoteAllergyIntolerances,
} from './documents';
import { toRiskAssessment } from './assessment';
import { recordObservationResources } from './observations';
import { LISTED_AS, ROWS_OF } from './kinds';
import { toEncounter, toPatient, toPractitioner } from './resources';

/** What the mappings need beyond the rows: where the api is, the clinic's zone, how to sign a file URL. */
export interface FhirContext {
  /** the FHIR base, e.g. `https://api.example.org/fhir/R4` (fullUrl and links are made from it) */
  baseUrl: string;
  /** CLINIC_TIME_ZONE: observation times recorded as local clinic times */
  timeZone: string;
  /** today on the clinic's calendar (YYYY-MM-DD): whether a prescription is still active */
  today: string;
}

/** The entities a patient's whole FHIR record returns: one audit list row each (as the app's lists write). */
export const EVERYTHING_AUDIT: AuditEntity[] = [
  'account',
  'assignment',
  'medical_record',
  'prescription',
  'medical_file',
  'allergy_intolerance',
];

/** Every resource of a patient, in a stable order: Patient, Practitioners, then per type newest first. */
export async function resourcesOf(rows: PatientRows, ctx: FhirContext): Promise<Resource[]> {
  const recordedAt = recordedAtOf(rows);
  // meta.lastUpdated: when it was recorded or last changed (searched by _lastUpdated, read by clients syncing)
  return withLastUpdated(recordedAt, [
    toPatient(rows.patient),
    ...rows.doctors.map(toPractitioner),
    ...rows.records.map(toEncounter),
    ...rows.records.flatMap((r) => recordObservationResources(r, ctx.timeZone)),
    ...rows.records.map(toRiskAssessment).filter((a) => a !== null),
    ...rows.records.map(toComposition).filter((c) => c !== null),
    ...rows.allergies.map(toAllergyIntolerance),
    ...toNoteAllergyIntolerances(rows.patient.id, rows.allergyNotes),
    ...rows.prescriptions.map((p) => toMedicationRequest(p, ctx.today)),
    ...rows.files.map((f) => toDocumentReference(f, ctx.baseUrl)),
  ]);
}

function withLastUpdated(recordedAt: (r: Resource) => number | undefined, resources: Resource[]): Resource[] {
  for (const r of resources) {
    const at = recordedAt(r);
    if (at !== undefined && Number.isFinite(at) && at > 0) r.meta = { ...r.meta, lastUpdated: new Date(at).toISOString() };
  }
  return resources;
}

/** A page's self link, and next and previous where there are such pages (`url(offset)` builds each). */
export function pageLinks(url: (offset: number) => string, offset: number, count: number, total: number): BundleLink[] {
  const links: BundleLink[] = [{ relation: 'self', url: url(offset) }];
  if (count > 0 && offset + count < total) links.push({ relation: 'next', url: url(offset + count) });
  if (offset > 0) links.push({ relation: 'previous', url: url(Math.max(0, offset - count)) });
  return links;
}

export function searchset(
  resources: Resource[],
  ctx: FhirContext,
  opts: { total?: number; links?: Bundle['link'] } = {},
): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total: opts.total ?? resources.length,
    ...(opts.links?.length ? { link: opts.links } : {}),
    entry: resources.map((resource): BundleEntry => ({
      fullUrl: `${ctx.baseUrl}/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: 'match' },
    })),
  };
}

/** `$everything`'s parameters (shared-contracts FhirEverythingQuery), as validated by the route. */
export type EverythingQuery = z.output<typeof FhirEverythingQuery>;

/** The types `_type` names (comma-separated, repeatable); every type when it is left out; 400 for an unknown one. */
function typesOf(param: EverythingQuery['_type']): FhirType[] {
  if (param === undefined) return [...FHIR_TYPES];
  const names = (Array.isArray(param) ? param : [param]).flatMap((p) => p.split(',')).map((t) => t.trim());
  const unknown = names.filter((t) => !(FHIR_TYPES as readonly string[]).includes(t));
  if (unknown.length || !names.length)
    throw new HttpError(400, `_type: ${unknown.join(', ') || '(empty)'} is not one of ${FHIR_TYPES.join(', ')}`);
  return FHIR_TYPES.filter((t) => names.includes(t));
}

/** The latest of some instants (ms), the missing ones left out. */
const latest = (...at: (Date | string | null | undefined)[]) =>
  Math.max(...at.filter((a) => a != null).map((a) => new Date(a!).getTime()));

/**
 * When each resource was recorded or last changed (`_since`), by resource: an Encounter and its
 * Observations when the record was written, its Composition also when summarised, its
 * RiskAssessment also when (re)assessed, a MedicationRequest also when stopped or overridden, an
 * allergy entry when last changed, an allergy note when written, a document when stored.
 * undefined: always included — the Patient and the Practitioners the others refer to.
 */
function recordedAtOf(rows: PatientRows): (r: Resource) => number | undefined {
  const records = new Map(rows.records.map((r) => [r.id, r]));
  const prescriptions = new Map(rows.prescriptions.map((p) => [p.id, latest(p.createdAt, p.stoppedAt, p.override?.at)]));
  const allergies = new Map(rows.allergies.map((a) => [a.id, latest(a.recordedAt, a.updatedAt)]));
  const files = new Map(rows.files.map((f) => [f.id, latest(f.createdAt, f.storedAt)]));
  return (r) => {
    const record = records.get(r.id!.slice(0, 36));
    switch (r.resourceType) {
      case 'Encounter':
      case 'Observation':
        return record ? latest(record.createdAt) : 0;
      case 'Composition':
        return record ? latest(record.createdAt, record.summaryInfo?.generatedAt) : 0;
      case 'RiskAssessment':
        return record ? latest(record.createdAt, record.assessment?.computedAt) : 0;
      case 'MedicationRequest':
        return prescriptions.get(r.id!) ?? 0;
      case 'AllergyIntolerance':
        return allergies.get(r.id!) ?? latest(r.recordedDate);
      case 'DocumentReference':
        return files.get(r.id!) ?? 0;
      default:
        return undefined;
    }
  };
}

/**
 * The care date of a resource (`start`/`end`), a day on the clinic's calendar: an Encounter's start,
 * an Observation's time, a MedicationRequest's authoredOn, a DocumentReference's date; a record's
 * Composition and RiskAssessment take their Encounter's. undefined: always included — the Patient,
 * the Practitioners, and the allergies (an allergy holds whatever the period: a date range must
 * never read as "no allergy", hazard L4).
 */
function careDayOf(r: Resource, encounterStart: Map<string, string>, timeZone: string): string | undefined {
  const at = (() => {
    switch (r.resourceType) {
      case 'Encounter':
        return r.period?.start;
      case 'Observation':
        return r.effectiveDateTime;
      case 'MedicationRequest':
        return r.authoredOn;
      case 'DocumentReference':
        return r.date;
      case 'Composition':
      case 'RiskAssessment':
        return encounterStart.get(r.id!.slice(0, 36)) ?? '';
      default:
        return undefined;
    }
  })();
  if (at === undefined) return undefined;
  return /^\d{4}-\d{2}-\d{2}$/.test(at) ? at : at ? isoDate(new Date(at), timeZone) : '';
}

/** Whether a day lies in [start, end], each a year, month or day taken whole. */
const inCarePeriod = (day: string, start?: string, end?: string) =>
  (start === undefined || day.slice(0, start.length) >= start) && (end === undefined || day.slice(0, end.length) <= end);

/**
 * `Patient/{id}/$everything` (R4 patient-operation-everything): a searchset Bundle of what CareLoop
 * holds on the patient — of the types `_type` names (only their rows are read), recorded or changed
 * since `_since`, with care dates in `start`..`end`, `_count` to a page from `_offset` with
 * self/next/previous links carrying every parameter and an exact `total`. Without parameters,
 * everything in one page (the health-record PDF reads it so).
 * The permission check is inside: `access` (accessFor(deps, request)) answers 404 PATIENT_NOT_FOUND
 * unless its caller is the patient or an assigned doctor, and writes the audit rows the app's own
 * lists write (EVERYTHING_AUDIT, of the types included), in the same transaction as the read.
 */
export async function patientEverything(
  access: PatientAccess,
  patientId: string,
  ctx: FhirContext,
  query: EverythingQuery = {},
): Promise<Bundle> {
  const types = typesOf(query._type);
  const kinds = [...new Set(types.flatMap((t) => ROWS_OF[t]))];
  const audited = EVERYTHING_AUDIT.filter((entity) => types.some((t) => LISTED_AS[t] === entity));
  const rows = await access.fhirRecordOf(patientId, { kinds }, audited);
  let resources = (await resourcesOf(rows, ctx)).filter((r) => types.includes(r.resourceType as FhirType));
  if (query._since !== undefined) {
    const since = Date.parse(query._since);
    const recordedAt = recordedAtOf(rows);
    resources = resources.filter((r) => (recordedAt(r) ?? since) >= since);
  }
  if (query.start !== undefined || query.end !== undefined) {
    const encounterStart = new Map(rows.records.map((r) => [r.id, careDayOf(toEncounter(r), new Map(), ctx.timeZone)!] as const));
    resources = resources.filter((r) => {
      const day = careDayOf(r, encounterStart, ctx.timeZone);
      return day === undefined || inCarePeriod(day, query.start, query.end);
    });
  }
  const count = query._count ?? resources.length;
  const offset = query._offset ?? 0;
  const url = (at: number) => {
    const q = new URLSearchParams();
    if (query._since !== undefined) q.set('_since', query._since);
    if (query._type !== undefined) q.set('_type', types.join(','));
    if (query.start !== undefined) q.set('start', query.start);
    if (query.end !== undefined) q.set('end', query.end);
    if (query._count !== undefined) q.set('_count', String(count));
    if (query._count !== undefined || query._offset !== undefined) q.set('_offset', String(at));
    const search = q.toString();
    return `${ctx.baseUrl}/Patient/${patientId}/$everything${search ? `?${search}` : ''}`;
  };
  const links: BundleLink[] =
    query._count !== undefined ? pageLinks(url, offset, count, resources.length) : [{ relation: 'self', url: url(offset) }];
  const page = query._count === undefined && offset === 0 ? resources : resources.slice(offset, offset + count);
  return searchset(page, ctx, { total: resources.length, links });
}
