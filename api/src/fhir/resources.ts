import type { Encounter, HumanName, Identifier, Patient, Practitioner } from '@medplum/fhirtypes';
import type { DoctorRow, PatientRows } from '../access';

/*
 * Pure mappings from CareLoop's rows to FHIR R4 resources (no http, no database). Ids are the
 * domain ids, so a resource keeps its id across reads. FHIR forbids empty strings and empty
 * arrays: absent values are left out, never sent as "".
 */

type PatientRow = PatientRows['patient'];
type RecordRow = PatientRows['records'][number];

/**
 * CareLoop's own naming systems (URIs under careloop.example, which CareLoop controls): the
 * identifier systems of its accounts (the value is the account id) and its code system for the
 * kinds of documents it stores. docs/fhir.md lists them.
 */
export const CARELOOP_SYSTEMS = {
  patientId: 'https://careloop.example/fhir/sid/patient-id',
  doctorId: 'https://careloop.example/fhir/sid/doctor-id',
  documentType: 'https://careloop.example/fhir/CodeSystem/document-type',
} as const;

const identifier = (system: string, value: string): Identifier[] => [{ system, value }];

/** Only the non-empty strings of a list; undefined when none is left (FHIR: no empty arrays). */
export function nonEmpty<T>(items: (T | null | undefined | '')[]): T[] | undefined {
  const kept = items.filter((x): x is T => x !== null && x !== undefined && x !== '' && !(typeof x === 'string' && !x.trim()));
  return kept.length ? kept : undefined;
}

/** A text value or nothing: FHIR strings must contain non-whitespace. */
export const text = (s: string | null | undefined): string | undefined => (s && s.trim() ? s.trim() : undefined);

// CareLoop's genders (shared-contracts GENDERS) in FHIR's AdministrativeGender.
const GENDER: Record<string, Patient['gender']> = {
  Male: 'male',
  Female: 'female',
  Other: 'other',
  'Prefer not to say': 'unknown',
};

// CareLoop's marital statuses in HL7 v3 MaritalStatus (the value set FHIR R4 binds Patient.maritalStatus to).
const MARITAL: Record<string, { code: string; display: string }> = {
  Married: { code: 'M', display: 'Married' },
  Unmarried: { code: 'U', display: 'unmarried' },
};

/** One word of letters (any script), hyphens or apostrophes only inside it: "Ada", "Smith-Jones", "O'Brien". */
const NAME_WORD = /^\p{L}+(?:['’-]\p{L}+)*$/u;
/** A leading doctor's title, with or without its full stop. */
const DOCTOR_TITLE = /^dr\.?$/i;

/**
 * A name as written (`text`, always), split into `given`/`family` only when that is unambiguous:
 * exactly two words of letters (given, family). Anything else (one word, three words, initials,
 * digits) is left as text only: which part is the family name cannot be known. For a doctor a
 * leading "Dr"/"Dr." is the `prefix`, never part of a name.
 */
export function humanNameOf(name: string, options: { titled?: boolean } = {}): HumanName[] | undefined {
  const full = text(name);
  if (!full) return undefined;
  const words = full.split(/\s+/);
  const prefix = options.titled && words.length > 1 && DOCTOR_TITLE.test(words[0]) ? [words.shift()!] : undefined;
  const parts = words.length === 2 && words.every((w) => NAME_WORD.test(w)) ? { given: [words[0]], family: words[1] } : {};
  return [{ text: full, ...parts, ...(prefix ? { prefix } : {}) }];
}

export function toPatient(p: PatientRow): Patient {
  const marital = MARITAL[p.maritalStatus];
  const line = nonEmpty([text(p.addressStreet)]);
  const address = {
    line,
    city: text(p.addressCity),
    state: text(p.addressState),
    postalCode: text(p.addressPinCode),
  };
  const hasAddress = Object.values(address).some((v) => v !== undefined);
  return {
    resourceType: 'Patient',
    id: p.id,
    identifier: identifier(CARELOOP_SYSTEMS.patientId, p.id),
    active: true,
    name: humanNameOf(p.name),
    telecom: [{ system: 'email', value: p.email }],
    gender: GENDER[p.gender] ?? 'unknown',
    ...(p.dob ? { birthDate: p.dob } : {}),
    ...(hasAddress ? { address: [address] } : {}),
    ...(marital
      ? {
          maritalStatus: {
            coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus', ...marital }],
            text: p.maritalStatus,
          },
        }
      : {}),
  };
}

export function toPractitioner(d: DoctorRow): Practitioner {
  return {
    resourceType: 'Practitioner',
    id: d.id,
    identifier: identifier(CARELOOP_SYSTEMS.doctorId, d.id),
    active: true,
    name: humanNameOf(d.name, { titled: true }),
    telecom: [{ system: 'email', value: d.email }],
    gender: GENDER[d.gender] ?? 'unknown',
    qualification: nonEmpty(d.qualifications.map(text))?.map((q) => ({ code: { text: q } })),
  };
}

// Mode of admission (shared-contracts MODES_OF_ADMISSION) as the encounter's class (HL7 v3 ActCode).
const ENCOUNTER_CLASS: Record<string, { code: string; display: string }> = {
  Emergency: { code: 'EMER', display: 'emergency' },
  Outpatient: { code: 'AMB', display: 'ambulatory' },
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}$/;

/**
 * When the encounter began: its date of admission (the clinic-calendar day the record was
 * written for); for a row without a readable one, the day its signs were measured (the local
 * observation time's date: a time of day needs a zone this pure mapping does not have); else the
 * instant the record was written.
 */
function encounterStart(r: RecordRow): string {
  if (ISO_DATE.test(r.biodata.dateOfAdmission ?? '')) return r.biodata.dateOfAdmission;
  const measured = LOCAL_DATE_TIME.exec(r.examination.generalPhysicalExamination.observedAt ?? '');
  return measured ? measured[1] : r.createdAt.toISOString();
}

/** One medical record is one encounter: admitted on its date of admission, by the doctor who wrote it. */
export function toEncounter(r: RecordRow): Encounter {
  const mode = r.biodata.modeOfAdmission;
  const cls = ENCOUNTER_CLASS[mode] ?? { code: 'AMB', display: 'ambulatory' };
  return {
    resourceType: 'Encounter',
    id: r.id,
    status: 'finished',
    class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', ...cls },
    ...(text(r.title) ? { type: [{ text: text(r.title) }] } : {}),
    subject: { reference: `Patient/${r.patientId}` },
    participant: [
      {
        individual: { reference: `Practitioner/${r.doctorId}`, display: text(r.doctorInfo.doctorName) },
      },
    ],
    period: { start: encounterStart(r) },
    ...(text(mode) ? { hospitalization: { admitSource: { text: text(mode) } } } : {}),
  };
}
