import styled from 'styled-components';
import type { Acuity, Assessment } from '@careloop/shared-contracts';
import { useClinicTime } from './dates';

/*
 * A record's clinical assessment, at the top of the record: its colour and wording follow the
 * highest acuity, the reasons are listed most urgent first. Emergency and urgent are announced
 * (role="alert"); the rest are a status. Computed by the api on write (api/src/clinical/assessment.ts).
 */

const LOOK: Record<Acuity, { background: string; color: string; border: string; title: string }> = {
  emergency: { background: '#991b1b', color: '#ffffff', border: '#7f1d1d', title: 'Emergency — assess now' },
  urgent: { background: '#9a3412', color: '#ffffff', border: '#7c2d12', title: 'Urgent — review soon' },
  review: { background: '#fef3c7', color: '#422006', border: '#d97706', title: 'Review' },
  none: { background: '#e3f4f2', color: '#064e4a', border: '#0b6e69', title: 'No alert' },
};

const Box = styled.section<{ $acuity: Acuity }>`
  background: ${({ $acuity }) => LOOK[$acuity].background};
  color: ${({ $acuity }) => LOOK[$acuity].color};
  border-left: 6px solid ${({ $acuity }) => LOOK[$acuity].border};
  border-radius: 8px;
  padding: 0.6rem 0.85rem;
  margin: 0 0 1rem;
  h2 {
    font-size: 1.05rem;
    margin: 0 0 0.25rem;
    color: inherit;
  }
  ul {
    margin: 0.25rem 0;
    padding-left: 1.2rem;
  }
  li {
    overflow-wrap: anywhere;
  }
  details {
    margin-top: 0.3rem;
    font-size: 0.9rem;
  }
  summary {
    cursor: pointer;
  }
  small {
    opacity: 0.9;
  }
`;

export function AssessmentBanner({ assessment }: { assessment: Assessment }) {
  const { acuity, findings, caveats } = assessment;
  const look = LOOK[acuity];
  const { format } = useClinicTime();
  const alerting = acuity === 'emergency' || acuity === 'urgent';
  return (
    <Box $acuity={acuity} role={alerting ? 'alert' : 'status'} aria-label="Clinical assessment">
      <h2>{look.title}</h2>
      {assessment.reasons.length > 0 ? (
        <ul>
          {assessment.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : (
        <p style={{ margin: 0 }}>
          {assessment.hasVitals
            ? 'No critical value, NEWS2 trigger, sepsis sign or medication alert.'
            : 'No vital signs in this record: nothing to score.'}
        </p>
      )}
      {caveats.length > 0 && (
        <ul aria-label="Caveats">
          {caveats.map((c) => (
            <li key={c}>
              <strong>Caution:</strong> {c}
            </li>
          ))}
        </ul>
      )}
      {findings.length > 0 && (
        <details>
          <summary>What to do, and sources</summary>
          <ul>
            {findings.map((f) => (
              <li key={`${f.title}|${f.detail}`}>
                <strong>{f.title}:</strong> {f.detail} <small>({f.source})</small>
              </li>
            ))}
          </ul>
        </details>
      )}
      <small>Assessed {format(assessment.computedAt)}</small>
    </Box>
  );
}
