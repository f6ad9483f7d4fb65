import { useState } from 'react';
import styled from 'styled-components';
import type { Prescription, Role } from '@careloop/shared-contracts';
import { serverError, usePrescriptions, useStopPrescription } from '@careloop/shared-auth';
import { Banner, Button, Card, EmptyState, Heading, Row } from './components';
import { formatDate, useClinicTime } from './dates';
import { TextField } from './inputs';
import { MedicationAlertList, NotChecked } from './MedicationAlerts';
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

const STATUS_TEXT: Record<Prescription['status'], string> = { active: 'Active', completed: 'Completed', stopped: 'Stopped' };

/**
 * How long it runs, in words: "Active · until 3 Dec 2026", "Active · long-term", "Stopped 1 Dec 2026 by …: rash";
 * a moment's day in `timeZone` (the clinic's).
 */
export function courseText(p: Prescription, timeZone?: string): string {
  if (p.stopped) return `Stopped ${formatDate(p.stopped.at, timeZone)} by ${p.stopped.by}: ${p.stopped.reason}`;
  const end = p.endsOn
    ? `${p.status === 'completed' ? 'ended' : 'until'} ${formatDate(p.endsOn)}`
    : p.longTerm
      ? 'long-term'
      : 'no end date given';
  return `${STATUS_TEXT[p.status]} · ${end}`;
}

/** The doctor stops an active prescription, giving the reason. */
function StopPrescription({ prescription }: { prescription: Prescription }) {
  const stop = useStopPrescription();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!open)
    return (
      <Button type="button" $variant="danger" onClick={() => setOpen(true)}>
        Stop prescription
      </Button>
    );
  return (
    <form
      aria-label="Stop prescription"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        stop.mutateAsync({ id: prescription._id, reason: reason.trim() }).then(
          () => setOpen(false),
          async (err: unknown) => setError((await serverError(err)) ?? 'Could not stop the prescription'),
        );
      }}
    >
      <TextField label="Why is it stopped?" value={reason} onChange={setReason} required maxLength={500} />
      {error && <Banner tone="error">{error}</Banner>}
      <Row>
        <Button type="submit" $variant="danger" busy={stop.isPending} disabled={reason.trim().length < 3}>
          Stop it
        </Button>
        <Button type="button" $variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </Row>
    </form>
  );
}

/** /prescription: the list (page 1) and the selected prescription, for either role. */
export function PrescriptionList({ role }: { role: Role }) {
  const prescriptions = usePrescriptions();
  const [selected, setSelected] = useState<string | null>(null);
  const items = prescriptions.data?.items ?? [];
  const current = items.find((p) => p._id === selected) ?? items[0];
  const clinic = useClinicTime();
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
                      {STATUS_TEXT[p.status]}
                      {p.override && ' · alert overridden'}
                      {p.uncoded.length > 0 && ' · not checked'} ·{' '}
                      {/* a doctor's list mixes patients: whose, by date of birth and e-mail too */}
                      {role === 'patient' ? (
                        `by ${p.assignedBy}`
                      ) : (
                        <>
                          for <AssignedPatientIdentity inline patientId={p.patientId} fallbackName={p.patientName} /> · {p.dosage}
                        </>
                      )}{' '}
                      · {clinic.formatDate(p.createdAt)}
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
              <dd>{clinic.formatDate(current.createdAt)}</dd>
              <dt>Status</dt>
              <dd>{courseText(current, clinic.timeZone)}</dd>
            </Facts>
            <NotChecked drugs={current.uncoded} />
            {current.override && (
              <section aria-label="Overridden alerts">
                <h3>
                  Prescribed despite {current.override.alerts.length === 1 ? 'a stop alert' : 'stop alerts'} — by{' '}
                  {current.override.by} on {clinic.formatDate(current.override.at)}
                </h3>
                <p>Reason: {current.override.reason}</p>
                <MedicationAlertList alerts={current.override.alerts} />
              </section>
            )}
            {role === 'doctor' && current.status === 'active' && <StopPrescription key={current._id} prescription={current} />}
          </Card>
        </ListDetail>
      )}
    </>
  );
}
