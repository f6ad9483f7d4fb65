import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';
import { EVERY_ROW_KIND, type AuditEntity, type PatientAccess, type PatientRows } from '../access';
import {
  toAllergyIntolerance,
  toComposition,
  toDocumentReference,
  toMedicationRequest,
  toNoteAllergyIntolerances,
} from './documents';
import { toRiskAssessment } from './assessment';
import { recordObservationResources } from './observations';
import { toEncounter, toPatient, toPractitioner } from './resources';

/** What the mappings need beyond the rows: where the api is, the clinic's zone, how to sign a file URL. */
export interface FhirContext {
  /** the FHIR base, e.g. `https://api.example.org/fhir/R4` (fullUrl and links are made from it) */
  baseUrl: string;
  /** CLINIC_TIME_ZONE: observation times recorded as local clinic times */
  timeZone: string;
  /** today on the clinic's calendar (YYYY-MM-DD): whether a prescription is still active */
  today: string;
  /** a short-lived download URL of a stored file, issued to the caller */
  fileUrl(file: { storageKey: string; fileName: string }): Promise<string>;
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
  const documents = await Promise.all(rows.files.map(async (f) => toDocumentReference(f, await ctx.fileUrl(f))));
  return [
    toPatient(rows.patient),
    ...rows.doctors.map(toPractitioner),
    ...rows.records.map(toEncounter),
    ...rows.records.flatMap((r) => recordObservationResources(r, ctx.timeZone)),
    ...rows.records.map(toRiskAssessment).filter((a) => a !== null),
    ...rows.records.map(toComposition).filter((c) => c !== null),
    ...rows.allergies.map(toAllergyIntolerance),
    ...toNoteAllergyIntolerances(rows.patient.id, rows.allergyNotes),
    ...rows.prescriptions.map((p) => toMedicationRequest(p, ctx.today)),
    ...documents,
  ];
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

/**
 * `Patient/{id}/$everything`: a searchset Bundle of everything CareLoop holds on the patient.
 * The permission check is inside: `access` (accessFor(deps, request)) answers 404 PATIENT_NOT_FOUND
 * unless its caller is the patient or an assigned doctor, and writes the audit rows the app's own
 * lists write (EVERYTHING_AUDIT), in the same transaction as the read.
 */
export async function patientEverything(access: PatientAccess, patientId: string, ctx: FhirContext): Promise<Bundle> {
  const rows = await access.fhirRecordOf(patientId, { kinds: EVERY_ROW_KIND }, EVERYTHING_AUDIT);
  const resources = await resourcesOf(rows, ctx);
  return searchset(resources, ctx, {
    links: [{ relation: 'self', url: `${ctx.baseUrl}/Patient/${patientId}/$everything` }],
  });
}
