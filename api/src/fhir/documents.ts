import type {
  AllergyIntolerance,
  Binary,
  Composition,
  DetectedIssue,
  DocumentReference,
  MedicationRequest,
} from '@medplum/fhirtypes';
import { createHash } from 'node:crypto';
import { categoryOf, prescriptionStatus, unreviewedReadings, type AllergyNote, type PatientRows } from '../access';
import { LOINC } from './observations';
import { CARELOOP_SYSTEMS, nonEmpty, text } from './resources';

type RecordRow = PatientRows['records'][number];

/**
 * An entry's criticality only where one was stated: 'unable-to-assess' is CareLoop's fill-in when
 * nobody said (a patient's report defaults to it, the allergy form starts on it, a note naming no
 * reaction's severity reads as it), so it is left out: FHIR reads a missing criticality as not known.
 */
const statedCriticality = (c: AllergyIntolerance['criticality']) => (c && c !== 'unable-to-assess' ? { criticality: c } : {});

/** A structured allergy entry (already in FHIR's vocabulary: issue 13) as an AllergyIntolerance. */
export function toAllergyIntolerance(a: PatientRows['allergies'][number]): AllergyIntolerance {
  const recorder = a.recordedByRole === 'doctor' ? `Practitioner/${a.recordedById}` : `Patient/${a.recordedById}`;
  return {
    resourceType: 'AllergyIntolerance',
    id: a.id,
    clinicalStatus: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: a.clinicalStatus }],
    },
    verificationStatus: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: a.verificationStatus }],
    },
    type: a.type,
    category: [a.category],
    ...statedCriticality(a.criticality),
    // the vocabulary's codes are CareLoop's own, not a published code system: the substance goes as text
    code: { text: a.substanceText },
    patient: { reference: `Patient/${a.patientId}` },
    recordedDate: a.recordedAt.toISOString(),
    recorder: { reference: recorder },
    asserter: { reference: recorder },
    reaction: nonEmpty(
      a.reactions
        .filter((r) => text(r.manifestation))
        .map((r) => ({
          manifestation: [{ text: text(r.manifestation) }],
          ...(r.severity ? { severity: r.severity } : {}),
        })),
    ),
    note: text(a.note) ? [{ text: text(a.note)! }] : undefined,
  };
}

/** The id of an allergy read from a note: the patient's id first, so a read by id finds whose it is. */
export const noteAllergyId = (patientId: string, note: AllergyNote, index: number) =>
  `${patientId}-note-${createHash('sha256').update(note.key).digest('hex').slice(0, 12)}-${index}`;
export const NOTE_ALLERGY_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-note-[0-9a-f]{12}-\d+$/i;

/**
 * The allergies a free-text note states that no structured entry reviews, as the allergy list
 * shows them: unconfirmed (hazard L4 in api/CLINICAL.md — left out, an export read "no allergy"
 * for a patient whose record said penicillin). The note goes with it as written.
 */
export function toNoteAllergyIntolerances(patientId: string, notes: AllergyNote[]): AllergyIntolerance[] {
  return unreviewedReadings(notes, new Set()).map(({ note, entry, index }) => ({
    resourceType: 'AllergyIntolerance',
    id: noteAllergyId(patientId, note, index),
    clinicalStatus: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: entry.clinicalStatus }],
    },
    verificationStatus: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'unconfirmed' }],
    },
    type: entry.type,
    category: [categoryOf(entry)],
    // from a note: high or low only where it states a reaction's severity (allergy-text)
    ...statedCriticality(entry.criticality),
    code: { text: entry.substance.text },
    patient: { reference: `Patient/${patientId}` },
    recordedDate: note.at.toISOString(),
    recorder: { reference: `Practitioner/${note.doctorId}` },
    reaction: nonEmpty(
      entry.reactions
        .filter((r) => text(r.manifestation))
        .map((r) => ({ manifestation: [{ text: text(r.manifestation)! }], ...(r.severity ? { severity: r.severity } : {}) })),
    ),
    note: [
      {
        text: `Not yet reviewed; as written in ${note.source === 'record' ? 'a medical record' : 'a prescription'}: "${note.text}"`,
      },
      ...(entry.review ? [{ text: `To review: ${entry.review}` }] : []),
    ],
  }));
}

const COURSE_OF_THERAPY = 'http://terminology.hl7.org/CodeSystem/medicationrequest-course-of-therapy';
const DETECTED_ISSUE_SEVERITY = { stop: 'high', warning: 'moderate', info: 'low' } as const;

/**
 * A prescription as a MedicationRequest (an order by the prescribing doctor; the drug as written):
 * its status on `today`, the course (bounds and acute/continuous), why it was stopped, each stop
 * alert the prescriber overrode as a contained DetectedIssue with the reason as its mitigation, and a
 * note for any drug text the check could not recognise.
 */
export function toMedicationRequest(p: PatientRows['prescriptions'][number], today: string): MedicationRequest {
  const instruction = [p.dosage, p.administrationRoute, p.dosageFrequency].map(text).filter(Boolean).join(', ');
  const start = p.createdAt.toISOString().slice(0, 10);
  const repeat = p.endsOn ? { repeat: { boundsPeriod: { start, end: p.endsOn } } } : {};
  const issues: DetectedIssue[] = (p.override?.alerts ?? []).map((alert, i) => ({
    resourceType: 'DetectedIssue',
    id: `override-${i + 1}`,
    status: 'final',
    code: { text: alert.kind === 'interaction' ? 'Drug interaction' : 'Drug allergy' },
    severity: DETECTED_ISSUE_SEVERITY[alert.severity],
    patient: { reference: `Patient/${p.patientId}` },
    identifiedDateTime: p.override!.at,
    detail: `${alert.message} (Source: ${alert.source})`,
    mitigation: [
      {
        action: { text: `Prescribed despite the alert: ${p.override!.reason}` },
        date: p.override!.at,
        author: { reference: `Practitioner/${p.doctorId}`, display: text(p.override!.by) },
      },
    ],
  }));
  const notes = p.uncoded.map((d) => ({ text: `Not recognised: allergy and interaction checks were not performed for ${d}` }));
  return {
    resourceType: 'MedicationRequest',
    id: p.id,
    ...(issues.length ? { contained: issues } : {}),
    status: prescriptionStatus(p, today),
    ...(p.stoppedAt && text(p.stopReason) ? { statusReason: { text: text(p.stopReason) } } : {}),
    intent: 'order',
    ...(p.longTerm || p.endsOn
      ? { courseOfTherapyType: { coding: [{ system: COURSE_OF_THERAPY, code: p.longTerm ? 'continuous' : 'acute' }] } }
      : {}),
    medicationCodeableConcept: { text: p.prescribedDrug },
    subject: { reference: `Patient/${p.patientId}` },
    authoredOn: p.createdAt.toISOString(),
    requester: { reference: `Practitioner/${p.doctorId}`, display: text(p.assignedBy) },
    ...(issues.length ? { detectedIssue: issues.map((d) => ({ reference: `#${d.id}` })) } : {}),
    ...(notes.length ? { note: notes } : {}),
    ...(instruction || p.endsOn
      ? {
          dosageInstruction: [
            {
              ...(instruction ? { text: instruction } : {}),
              ...(text(p.administrationRoute) ? { route: { text: text(p.administrationRoute) } } : {}),
              ...(text(p.dosageFrequency) || p.endsOn
                ? { timing: { ...(text(p.dosageFrequency) ? { code: { text: text(p.dosageFrequency) } } : {}), ...repeat } }
                : {}),
            },
          ],
        }
      : {}),
  };
}

/**
 * What an uploaded file is, as far as CareLoop knows: a medical PDF someone uploaded. Its content
 * is not read, so no LOINC document type (34133-9 and the like would claim a kind of note nobody
 * checked): CareLoop's own code, and the category as text.
 */
export const UPLOADED_PDF_TYPE = {
  coding: [{ system: CARELOOP_SYSTEMS.documentType, code: 'uploaded-medical-pdf', display: 'Uploaded medical PDF' }],
  text: 'Uploaded medical PDF',
};
export const UPLOADED_DOCUMENT_CATEGORY = { text: 'Uploaded medical document' };

/**
 * An uploaded PDF as a DocumentReference whose attachment is its Binary (`{base}/Binary/{id}`, read
 * with the caller's bearer token): a lasting reference, so an export never holds a link that expired.
 */
export function toDocumentReference(f: PatientRows['files'][number], baseUrl: string): DocumentReference {
  return {
    resourceType: 'DocumentReference',
    id: f.id,
    status: 'current',
    type: UPLOADED_PDF_TYPE,
    category: [UPLOADED_DOCUMENT_CATEGORY],
    subject: { reference: `Patient/${f.patientId}` },
    date: (f.storedAt ?? f.createdAt).toISOString(),
    description: f.fileName,
    content: [
      {
        attachment: {
          contentType: 'application/pdf',
          url: `${baseUrl}/Binary/${f.id}`,
          title: f.fileName,
          ...(f.size !== null ? { size: f.size } : {}),
          creation: f.createdAt.toISOString(),
        },
      },
    ],
  };
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** A record's decision-support summary, once generated, as a Composition (LOINC 34133-9). */
export function toComposition(r: RecordRow): Composition | null {
  const summary = text(r.summary);
  if (!summary) return null;
  // narrative XHTML, escaped: the summary is text, never markup
  const paragraphs = summary
    .split(/\n+/)
    .filter((l) => l.trim())
    .map((l) => `<p>${escapeXml(l.trim())}</p>`)
    .join('');
  return {
    resourceType: 'Composition',
    id: r.id,
    status: 'final',
    type: { coding: [{ system: LOINC, code: '34133-9', display: 'Summary of episode note' }], text: 'Record summary' },
    subject: { reference: `Patient/${r.patientId}` },
    encounter: { reference: `Encounter/${r.id}` },
    date: r.createdAt.toISOString(),
    author: [{ reference: `Practitioner/${r.doctorId}`, display: text(r.doctorInfo.doctorName) }],
    title: text(r.title) ? `Summary: ${text(r.title)}` : 'Summary',
    section: [
      {
        title: 'Summary',
        text: { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${paragraphs}</div>` },
      },
    ],
  };
}

/** A stored PDF as a FHIR Binary (its bytes, base64), readable by whoever may read its patient's data. */
export function toBinary(f: PatientRows['files'][number], bytes: Buffer): Binary {
  return {
    resourceType: 'Binary',
    id: f.id,
    contentType: 'application/pdf',
    securityContext: { reference: `DocumentReference/${f.id}` },
    data: bytes.toString('base64'),
  };
}
