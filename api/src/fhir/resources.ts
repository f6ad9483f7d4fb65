import type { Encounter, HumanName, Patient, Practitioner } from '@medplum/fhirtypes';
import type { DoctorRow, PatientRows } from '../access';

/*
 * Pure mappings from CareLoop's rows to FHIR R4 resources (no http, no database). Ids are the
 * domain ids, so a resource keeps its id across reads. FHIR forbids empty strings and empty
 * arrays: absent values are left out, never sent as "".
 */

type PatientRow = PatientRows['patient'];
type RecordRow = PatientRows['records'][number];

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

const nameOf = (name: string): HumanName[] | undefined => (text(name) ? [{ text: text(name) }] : undefined);

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
    active: true,
    name: nameOf(p.name),
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
    active: true,
    name: nameOf(d.name),
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
    period: {
      start: /^\d{4}-\d{2}-\d{2}$/.test(r.biodata.dateOfAdmission) ? r.biodata.dateOfAdmission : r.createdAt.toISOString(),
    },
    ...(text(mode) ? { hospitalization: { admitSource: { text: text(mode) } } } : {}),
  };
}
