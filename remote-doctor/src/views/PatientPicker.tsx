import { Link } from '@careloop/shared-router';
import styled from 'styled-components';
import { useDoctorProfile } from '@careloop/shared-auth';
import { Card, EmptyState, Heading, Page, PatientIdentity, theme } from '@careloop/shared-ui';

const Rows = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 0.5rem;
  a {
    display: flex;
    align-items: center;
    gap: 0.8rem;
    /* A whole row to tap on a phone, not just the name. */
    min-height: 3.5rem;
    padding: 0.6rem 0.8rem;
    border: 1px solid ${theme.color.border};
    border-radius: 10px;
    color: inherit;
    text-decoration: none;
  }
  a:hover,
  a:focus-visible {
    background: ${theme.color.primarySoft};
    border-color: ${theme.color.primary};
  }
  strong {
    display: block;
    overflow-wrap: break-word;
  }
  small {
    display: block;
    color: ${theme.color.muted};
  }
`;
const Initials = styled.span`
  flex: none;
  display: grid;
  place-items: center;
  width: 2.4rem;
  height: 2.4rem;
  border-radius: 50%;
  background: ${theme.color.primarySoft};
  color: ${theme.color.primaryDark};
  font-weight: 700;
`;

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join('');

/**
 * /medical-record/create and /create-prescription: choose one of the doctor's assigned patients.
 * One row per patient, keyed and linked by id, showing date of birth and e-mail (two patients may
 * share a name).
 */
export function PatientPicker({ title, base, action }: { title: string; base: string; action: string }) {
  const { data } = useDoctorProfile();
  const patients = data?.doctor.assignedPatients ?? [];
  return (
    <Page>
      <Card>
        <Heading>{title}</Heading>
        {data && patients.length === 0 && <EmptyState>No assigned patients found</EmptyState>}
        {patients.length > 0 && (
          <>
            <p>Choose a patient:</p>
            <Rows aria-label="Assigned patients">
              {patients.map((p) => (
                <li key={p.patient}>
                  <Link to={`${base}/${p.patient}`}>
                    <Initials aria-hidden="true">{initialsOf(p.name)}</Initials>
                    <span>
                      <PatientIdentity patient={p} />
                      <small>{action}</small>
                    </span>
                  </Link>
                </li>
              ))}
            </Rows>
          </>
        )}
      </Card>
    </Page>
  );
}
