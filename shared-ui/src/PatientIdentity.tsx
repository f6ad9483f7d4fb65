import styled from 'styled-components';
import { formatDate, type AssignedPatient } from '@careloop/shared-contracts';
import { useDoctorProfile } from '@careloop/shared-auth';
import { usePageSubject } from './DocumentTitle';
import { theme } from './theme';

/** What tells one patient from another of the same name: name, date of birth and e-mail. */
export type PatientIdentityFacts = Pick<AssignedPatient, 'name' | 'DOB' | 'email'>;

/** Whole years between a YYYY-MM-DD birth date and `today`. */
export function ageOn(dob: string, today: Date): number {
  const [y, m, d] = dob.split('-').map(Number);
  const age = today.getFullYear() - y;
  const beforeBirthday = today.getMonth() + 1 < m || (today.getMonth() + 1 === m && today.getDate() < d);
  return beforeBirthday ? age - 1 : age;
}

/**
 * "12 Mar 1980 (46)": written out from the YYYY-MM-DD string itself, never through Date, so no
 * time zone can move a birthday by a day; month as a word so 03/12 is never read as 3 December.
 */
export function formatBirthDate(dob: string | null, today = new Date()): string {
  if (!dob || !/^\d{4}-\d{2}-\d{2}$/.test(dob)) return 'date of birth not given';
  return `${formatDate(dob)} (${ageOn(dob, today)})`;
}

/** One line for a native <option> or an accessible name: "Asha Rao · born 12 Mar 1980 (46) · asha@example.com". */
export function patientIdentityText(p: PatientIdentityFacts): string {
  const born = p.DOB ? `born ${formatBirthDate(p.DOB)}` : formatBirthDate(null);
  return `${p.name} · ${born} · ${p.email}`;
}

const Identity = styled.span`
  display: inline-flex;
  flex-direction: column;
  min-width: 0;
  strong {
    overflow-wrap: break-word;
  }
  small {
    color: ${theme.color.muted};
    /* an e-mail address breaks at its dots and @ rather than overflowing a phone's width */
    overflow-wrap: anywhere;
  }
`;

/**
 * A patient as a doctor sees them wherever one is chosen or shown: the name, then date of birth
 * (with age) and e-mail, so two patients with one name are never confused.
 */
export function PatientIdentity({ patient, as = 'strong' }: { patient: PatientIdentityFacts; as?: 'strong' | 'span' }) {
  const Name = as;
  return (
    <Identity data-testid="patient-identity">
      <Name>{patient.name}</Name>
      <small>
        {patient.DOB ? <>Born {formatBirthDate(patient.DOB)}</> : 'Date of birth not given'} · {patient.email}
      </small>
    </Identity>
  );
}

/**
 * A patient known by id on the doctor side (a prescription, a filtered list): their identity from
 * the doctor's assigned patients, or just `fallbackName` once they are no longer assigned.
 */
export function AssignedPatientIdentity({
  patientId,
  fallbackName = '',
  inline = false,
}: {
  patientId: string;
  fallbackName?: string;
  /** one line of text (a list row) rather than name over details */
  inline?: boolean;
}) {
  const { data } = useDoctorProfile();
  const patient = data?.doctor.assignedPatients.find((p) => p.patient === patientId);
  // shown whole, the patient is what the page is about: the title names them too
  usePageSubject(inline ? undefined : (patient?.name ?? (fallbackName || undefined)));
  if (inline) return <>{patient ? patientIdentityText(patient) : fallbackName}</>;
  if (patient) return <PatientIdentity patient={patient} />;
  return <strong>{fallbackName}</strong>;
}
