import { useId } from 'react';
import styled from 'styled-components';
import { ALERT_SEVERITIES, type MedicationAlert } from '@careloop/shared-contracts';
import { TextField } from './inputs';
import { theme } from './theme';

type Severity = MedicationAlert['severity'];

const LOOK: Record<Severity, { label: string; heading: string; border: string; background: string; color: string }> = {
  stop: { label: 'Stop', heading: 'Stop', border: theme.color.danger, background: '#fef2f2', color: theme.color.danger },
  warning: { label: 'Warning', heading: 'Warnings', border: '#b45309', background: '#fffbeb', color: '#92400e' },
  info: {
    label: 'Information',
    heading: 'Information',
    border: theme.color.border,
    background: '#f8fafc',
    color: theme.color.muted,
  },
};

const Group = styled.div<{ $severity: Severity }>`
  border: ${({ $severity }) => ($severity === 'stop' ? 3 : $severity === 'warning' ? 2 : 1)}px solid
    ${({ $severity }) => LOOK[$severity].border};
  border-radius: 10px;
  padding: 0.75rem 1rem;
  margin: 0.75rem 0;
  background: ${({ $severity }) => LOOK[$severity].background};
  ul {
    margin: 0.4rem 0 0;
    padding-left: 1.2rem;
  }
  li + li {
    margin-top: 0.3rem;
  }
`;

/** The minimum length of an override reason (the contract's OverrideReason). */
export const OVERRIDE_REASON_MIN = 3;

export const hasStop = (alerts: readonly MedicationAlert[]) => alerts.some((a) => a.severity === 'stop');

/** Finish may go: no stop alert, or a reason of the contract's minimum length given. */
export const overrideSatisfied = (alerts: readonly MedicationAlert[], reason: string) =>
  !hasStop(alerts) || reason.trim().length >= OVERRIDE_REASON_MIN;

/** The alert's message, and how a misspelling or abbreviation was read unless the message says so already. */
function AlertText({ alert }: { alert: MedicationAlert }) {
  const readAs = alert.readAs && !alert.message.includes(`read as ${alert.readAs}`) ? ` (read as ${alert.readAs})` : '';
  return (
    <>
      {alert.message}
      {readAs && <small>{readAs}</small>}
    </>
  );
}

/** The phrase every view uses for a drug text the check could not recognise. */
export const notRecognised = (drug: string) =>
  `${drug} not recognised — allergy and interaction checks were not performed for ${drug}`;

/**
 * What the check could not do, in the warning style: drug texts it did not recognise (never shown
 * as "nothing found"), or the check itself failing.
 */
export function NotChecked({ drugs, failed = false }: { drugs: readonly string[]; failed?: boolean }) {
  if (!drugs.length && !failed) return null;
  const look = LOOK.warning;
  return (
    <Group $severity="warning" role="status" aria-label="Not checked">
      <strong style={{ color: look.color }}>Not checked</strong>
      <ul>
        {failed && (
          <li>The allergy and interaction check could not run: nothing has been checked. Try again before you finish.</li>
        )}
        {drugs.map((d) => (
          <li key={d}>{notRecognised(d)}</li>
        ))}
      </ul>
    </Group>
  );
}

/** Alerts by severity: stops first (announced, strong), then warnings, then information. */
export function MedicationAlertList({ alerts }: { alerts: readonly MedicationAlert[] }) {
  return (
    <>
      {ALERT_SEVERITIES.map((severity) => {
        const group = alerts.filter((a) => a.severity === severity);
        if (group.length === 0) return null;
        const look = LOOK[severity];
        return (
          <Group
            key={severity}
            $severity={severity}
            // a stop is announced as it appears; the rest are read in their place
            role={severity === 'stop' ? 'alert' : undefined}
            aria-label={`${look.label} alerts`}
          >
            <strong style={{ color: look.color }}>{look.heading}</strong>
            <ul>
              {group.map((a, i) => (
                <li key={`${a.kind}-${a.substance}-${i}`}>
                  {severity === 'stop' ? <strong>{look.label}: </strong> : `${look.label}: `}
                  <AlertText alert={a} />
                </li>
              ))}
            </ul>
          </Group>
        );
      })}
    </>
  );
}

/**
 * The prescribing check's alerts before Finish, by severity: stops first (announced, strong), then
 * warnings, then information. A stop asks for the reason to override it; the form keeps Finish
 * blocked until it is given (overrideSatisfied) and sends it as `overrideReason`.
 */
export function MedicationAlerts({
  alerts,
  uncoded = [],
  failed = false,
  omitted = 0,
  reason,
  onReasonChange,
}: {
  alerts: readonly MedicationAlert[];
  /** drug texts the check did not recognise */
  uncoded?: readonly string[];
  /** the check could not run */
  failed?: boolean;
  /** lesser alerts the check left out of its list */
  omitted?: number;
  reason: string;
  onReasonChange(reason: string): void;
}) {
  const hintId = useId();
  if (alerts.length === 0 && uncoded.length === 0 && !failed) return null;
  return (
    <section aria-label="Medication alerts">
      <NotChecked drugs={uncoded} failed={failed} />
      <MedicationAlertList alerts={alerts} />
      {omitted > 0 && (
        <p>
          {omitted} further {omitted === 1 ? 'alert' : 'alerts'} of lower severity not listed: review the patient&apos;s allergies
          and medications.
        </p>
      )}
      {hasStop(alerts) && (
        <>
          <TextField
            label="Reason to override"
            value={reason}
            onChange={onReasonChange}
            required
            maxLength={500}
            aria-describedby={hintId}
          />
          <small id={hintId} style={{ display: 'block', margin: '-0.6rem 0 0.9rem', color: theme.color.muted }}>
            Finish stays blocked until you give a reason (at least {OVERRIDE_REASON_MIN} characters); it is kept with the
            prescription, shown to the patient, and in their access history.
          </small>
        </>
      )}
    </section>
  );
}
