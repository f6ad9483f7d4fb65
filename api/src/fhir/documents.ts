import type { AllergyIntolerance, Composition, DocumentReference, MedicationRequest } from '@medplum/fhirtypes';
import { createHash } from 'node:crypto';
import { categoryOf, type AllergyNote, type PatientRows } from '../access';
import { readAllergyText } from '../clinical';
import { LOINC } from './observations';
import { nonEmpty, text } from './resources';

type RecordRow = PatientRows['records'][number];

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
    criticality: a.criticality,
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
export function toNoteAllergyIntolerances(patientId: string, note: AllergyNote): AllergyIntolerance[] {
  const where = note.source === 'record' ? 'a medical record' : 'a prescription';
  return readAllergyText(note.text).map((entry, index) => ({
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
    criticality: entry.criticality,
    code: { text: entry.substance.text },
    patient: { reference: `Patient/${patientId}` },
    recordedDate: note.at.toISOString(),
    recorder: { reference: `Practitioner/${note.doctorId}` },
    reaction: nonEmpty(
      entry.reactions
        .filter((r) => text(r.manifestation))
        .map((r) => ({ manifestation: [{ text: text(r.manifestation)! }], ...(r.severity ? { severity: r.severity } : {}) })),
    ),
    note: [{ text: `Not yet reviewed; as written in ${where}: "${note.text}"` }],
  }));
}

/** A prescription as a MedicationRequest (an order by the prescribing doctor; the drug as written). */
export function toMedicationRequest(p: PatientRows['prescriptions'][number]): MedicationRequest {
  const instruction = [p.dosage, p.administrationRoute, p.dosageFrequency].map(text).filter(Boolean).join(', ');
  return {
    resourceType: 'MedicationRequest',
    id: p.id,
    // CareLoop does not record when a prescription ends or is stopped
    status: 'unknown',
    intent: 'order',
    medicationCodeableConcept: { text: p.prescribedDrug },
    subject: { reference: `Patient/${p.patientId}` },
    authoredOn: p.createdAt.toISOString(),
    requester: { reference: `Practitioner/${p.doctorId}`, display: text(p.assignedBy) },
    ...(instruction
      ? {
          dosageInstruction: [
            {
              text: instruction,
              ...(text(p.administrationRoute) ? { route: { text: text(p.administrationRoute) } } : {}),
              ...(text(p.dosageFrequency) ? { timing: { code: { text: text(p.dosageFrequency) } } } : {}),
            },
          ],
        }
      : {}),
  };
}

/** An uploaded PDF as a DocumentReference whose attachment is a short-lived signed URL. */
export function toDocumentReference(f: PatientRows['files'][number], url: string): DocumentReference {
  return {
    resourceType: 'DocumentReference',
    id: f.id,
    status: 'current',
    subject: { reference: `Patient/${f.patientId}` },
    date: (f.storedAt ?? f.createdAt).toISOString(),
    description: f.fileName,
    content: [
      {
        attachment: {
          contentType: 'application/pdf',
          url,
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
