import styled from 'styled-components';
import type { WorklistItem } from '@careloop/shared-contracts';
import { useDoctorProfile, useWorklist } from '@careloop/shared-auth';
import { AssignedPeople, ClinicTimeZoneNote, theme, useClinicTime } from '@careloop/shared-ui';

/** "NEWS2 7 (high)", "NEWS2 incomplete (at least 3)", "NEWS2 not applicable (under 16)" or "No vital signs yet". */
export function news2Text(latest: WorklistItem['latest']): string {
  if (!latest) return 'No vital signs yet';
  const { total, complete, band, applicable } = latest.news2;
  if (!applicable) return 'NEWS2 not applicable (under 16)';
  return complete ? `NEWS2 ${total} (${band})` : `NEWS2 incomplete (at least ${total})`;
}

/** "today", "1 day ago", "3 days ago": how old the last vital signs are. */
export function ageText(at: string, now = Date.now()): string {
  const days = Math.floor((now - new Date(at).getTime()) / 86_400_000);
  return days <= 0 ? 'today' : days === 1 ? '1 day ago' : `${days} days ago`;
}

const ACUITY_TEXT: Record<WorklistItem['acuity'], string> = {
  emergency: 'Emergency',
  urgent: 'Urgent',
  review: 'Review',
  none: 'No alert',
};

/** "+4 since previous", "−2 since previous", "no change", or "—" when there is nothing to compare. */
export function changeText(change: number | null): string {
  if (change === null) return '—';
  if (change === 0) return 'no change';
  return `${change > 0 ? '+' : '−'}${Math.abs(change)} since previous`;
}

const Facts = styled.span`
  display: flex;
  flex-wrap: wrap;
  gap: 0.15rem 0.9rem;
  margin-top: 0.3rem;
  font-size: 0.92rem;
  color: ${theme.color.muted};
`;

const ScreenReaderOnly = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
`;

const Why = styled.strong<{ $urgent: boolean }>`
  color: ${({ $urgent }) => ($urgent ? theme.color.danger : theme.color.text)};
`;

function WorklistFacts({ item }: { item: WorklistItem }) {
  const { format: formatDateTime } = useClinicTime();
  const urgent = item.acuity === 'emergency' || item.acuity === 'urgent';
  return (
    <Facts data-testid="worklist-facts">
      {/* why the row is where it is */}
      <Why $urgent={urgent}>
        {ACUITY_TEXT[item.acuity]}
        {item.reasons[0] ? `: ${item.reasons[0]}` : ''}
      </Why>
      <span>{news2Text(item.latest)}</span>
      {item.latest && (
        <span>
          {item.change === null ? (
            // a bare dash says nothing to a screen reader
            <span title="No comparable previous score">
              — <ScreenReaderOnly>no comparable previous score</ScreenReaderOnly>
            </span>
          ) : (
            changeText(item.change)
          )}
        </span>
      )}
      {item.lastVitalsAt && <span>Last vitals {ageText(item.lastVitalsAt)}</span>}
      {item.lastRecordAt && <span>Last record {formatDateTime(item.lastRecordAt)}</span>}
    </Facts>
  );
}

const FullWidth = styled.div`
  grid-column: 1 / -1;
  min-width: 0;
`;

/**
 * The doctor's worklist on the dashboard: every assigned patient, most at risk first (the api's
 * order: api/src/clinical/worklist.ts), with why (its acuity and first reason), the latest NEWS2, its change and the last record's
 * time; each name links to that patient's records. If the worklist cannot be read the patients
 * are still listed (from the profile), saying their risk is not available; if neither can be read,
 * the card says so with Try again — never an empty card.
 */
export function Worklist() {
  const worklist = useWorklist();
  const profile = useDoctorProfile();
  const people = worklist.data
    ? worklist.data.items.map((item) => ({
        id: item.patient,
        name: item.name,
        identity: item,
        details: <WorklistFacts item={item} />,
      }))
    : worklist.isError
      ? profile.data?.doctor.assignedPatients.map((p) => ({
          id: p.patient,
          name: p.name,
          identity: p,
          details: <Facts>Risk not available: the worklist could not be loaded</Facts>,
        }))
      : undefined;
  return (
    <FullWidth>
      <ClinicTimeZoneNote />
      <AssignedPeople
        title="Assigned patients"
        intro={
          worklist.isError
            ? undefined
            : 'Most urgent first: critical values and possible sepsis, then the latest NEWS2 of each patient’s last vital signs.'
        }
        role="doctor"
        empty="No assigned patients found"
        linkTo={(id) => `/doctor/all-medical-records?patientId=${encodeURIComponent(id)}`}
        people={people}
        failed={
          worklist.isError && profile.isError
            ? {
                text: 'Could not load your patients.',
                onRetry: () => void Promise.all([worklist.refetch(), profile.refetch()]),
              }
            : undefined
        }
      />
    </FullWidth>
  );
}
