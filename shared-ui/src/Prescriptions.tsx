import { useState } from 'react';
import styled from 'styled-components';
import type { Role } from 'shared-contracts';
import { usePrescriptions } from 'shared-auth';
import { Card, EmptyState, Heading } from './components';
import { ListDetail, PickList } from './ListDetail';
import { AssignedPatientIdentity } from './PatientIdentity';
import { theme } from './theme';

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 0.4rem 1rem;
  margin: 0;
  dt {
    color: ${theme.color.muted};
  }
  dd {
    margin: 0;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
`;

/** /prescription: the list (page 1) and the selected prescription, for either role. */
export function PrescriptionList({ role }: { role: Role }) {
  const prescriptions = usePrescriptions();
  const [selected, setSelected] = useState<string | null>(null);
  const items = prescriptions.data?.items ?? [];
  const current = items.find((p) => p._id === selected) ?? items[0];
  return (
    <>
      <Heading>Prescriptions</Heading>
      {prescriptions.data && items.length === 0 && (
        <Card>
          <EmptyState>No prescriptions found</EmptyState>
        </Card>
      )}
      {current && (
        <ListDetail>
          <Card>
            <PickList aria-label="Prescriptions">
              {items.map((p) => (
                <li key={p._id}>
                  <button type="button" aria-current={p._id === current._id} onClick={() => setSelected(p._id)}>
                    <strong>{p.prescribedDrug}</strong>
                    <small>
                      {/* a doctor's list mixes patients: whose, by date of birth and e-mail too */}
                      {role === 'patient' ? (
                        `by ${p.assignedBy}`
                      ) : (
                        <>
                          for <AssignedPatientIdentity inline patientId={p.patientId} fallbackName={p.patientName} /> · {p.dosage}
                        </>
                      )}{' '}
                      · {p.createdAt.slice(0, 10)}
                    </small>
                  </button>
                </li>
              ))}
            </PickList>
          </Card>
          <Card aria-label="Prescription">
            <h2 style={{ marginTop: 0 }}>{current.prescribedDrug}</h2>
            <Facts>
              {/* A doctor's list mixes patients: say whose it is first. */}
              {role === 'doctor' && (
                <>
                  <dt>Patient</dt>
                  <dd>
                    <AssignedPatientIdentity patientId={current.patientId} fallbackName={current.patientName} />
                  </dd>
                </>
              )}
              <dt>Dosage</dt>
              <dd>{current.dosage}</dd>
              <dt>Route</dt>
              <dd>{current.administrationRoute}</dd>
              <dt>Frequency</dt>
              <dd>{current.dosageFrequency}</dd>
              {/* Only what was typed on this prescription: an empty list must not read as "no known
                  allergies" (the patient's allergies on file are on their records page). */}
              <dt>Allergies</dt>
              <dd>{current.allergies.length ? current.allergies.join(', ') : 'None listed on this prescription'}</dd>
              <dt>Prescribed by</dt>
              <dd>{current.assignedBy}</dd>
              <dt>Date</dt>
              <dd>{current.createdAt.slice(0, 10)}</dd>
            </Facts>
          </Card>
        </ListDetail>
      )}
    </>
  );
}
