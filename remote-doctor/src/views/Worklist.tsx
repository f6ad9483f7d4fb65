import styled from 'styled-components';
import type { WorklistItem } from 'shared-contracts';
import { useDoctorProfile, useWorklist } from 'shared-auth';
import { AssignedPeople, formatDateTime, theme } from 'shared-ui';

/** "NEWS2 7 (high)", "NEWS2 incomplete (at least 3)" or "No records yet". */
export function news2Text(latest: WorklistItem['latest']): string {
  if (!latest) return 'No records yet';
  const { total, complete, band } = latest.news2;
  return complete ? `NEWS2 ${total} (${band})` : `NEWS2 incomplete (at least ${total})`;
}

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

const Score = styled.strong<{ $urgent: boolean }>`
  color: ${({ $urgent }) => ($urgent ? theme.color.danger : theme.color.text)};
`;

/** A score that calls for an urgent response or more (RCP 2017 Chart 4), or may: shown in red. */
const looksUrgent = (latest: WorklistItem['latest']) =>
  !!latest && (latest.news2.total >= 5 || latest.news2.singleParameterThree);

function WorklistFacts({ item }: { item: WorklistItem }) {
  return (
    <Facts data-testid="worklist-facts">
      <Score $urgent={looksUrgent(item.latest)}>{news2Text(item.latest)}</Score>
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
 * order: api/src/clinical/worklist.ts), with the latest NEWS2, its change and the last record's
 * time; each name links to that patient's records. If the worklist cannot be read the patients
 * are still listed (from the profile), saying their risk is not available — never an empty card.
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
      <AssignedPeople
        title="Assigned patients"
        intro={worklist.isError ? undefined : 'Highest risk first, by the latest NEWS2.'}
        role="doctor"
        empty="No assigned patients found"
        linkTo={(id) => `/doctor/all-medical-records?patientId=${encodeURIComponent(id)}`}
        people={people}
      />
    </FullWidth>
  );
}
