import { useId, useState } from 'react';
import styled from 'styled-components';
import { useNavigate } from '@careloop/shared-router';
import { DRAFT_FORM_NAMES, DRAFT_FORM_PATHS, recordSteps, type DraftSummary } from '@careloop/shared-contracts';
import { useDiscardDraft, useDoctorProfile, useDrafts } from '@careloop/shared-auth';
import { Banner, Button, PatientIdentity, RESUME_DRAFT, Row, theme, timeAgo, useClinicTime } from '@careloop/shared-ui';

const Notice = styled.section`
  border: 1px solid ${theme.color.primary};
  border-radius: 8px;
  padding: 0.75rem 1rem;
  margin: 0 0 1rem;
  h2 {
    font-size: 1.05rem;
    margin: 0 0 0.5rem;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  li + li {
    border-top: 1px solid ${theme.color.border};
    margin-top: 0.5rem;
    padding-top: 0.5rem;
  }
`;

const keyOf = (d: DraftSummary) => `${d.form}:${d.patientId}`;

/** Where a record draft was left: "step 5 of 8, Examination"; a one-page form says nothing. */
const whereLeft = (d: DraftSummary) =>
  d.form === 'medical-record' && recordSteps[d.step]
    ? `, at step ${d.step + 1} of ${recordSteps.length} (${recordSteps[d.step].title})`
    : '';

/**
 * The doctor's unsent drafts, first on the dashboard after sign-in: "Unfinished record for Maria
 * Lopez, 2 hours ago" with the patient's identity, Resume (the form, at the step left) and Discard
 * (asked first: the typing cannot be brought back).
 */
export function UnfinishedDrafts() {
  const headingId = useId();
  const drafts = useDrafts();
  const { data } = useDoctorProfile();
  const discard = useDiscardDraft();
  const navigate = useNavigate();
  const { format } = useClinicTime();
  const [confirming, setConfirming] = useState<string | null>(null);

  // Named from the doctor's own profile; a draft of a patient not (yet) in it waits for the profile.
  const listed = (drafts.data ?? []).flatMap((d) => {
    const patient = data?.doctor.assignedPatients.find((p) => p.patient === d.patientId);
    return patient ? [{ draft: d, patient }] : [];
  });
  if (listed.length === 0) return null;
  return (
    <Notice aria-labelledby={headingId}>
      <h2 id={headingId}>Unfinished work</h2>
      <ul>
        {listed.map(({ draft, patient }) => {
          const key = keyOf(draft);
          const what = `Unfinished ${DRAFT_FORM_NAMES[draft.form]} for ${patient.name}`;
          return (
            <li key={key}>
              <p style={{ margin: '0 0 0.25rem' }}>
                <strong>{what}</strong>,{' '}
                <time dateTime={draft.savedAt} title={format(draft.savedAt)}>
                  {timeAgo(draft.savedAt)}
                </time>
                {whereLeft(draft)}
              </p>
              <PatientIdentity patient={patient} as="span" />
              {confirming === key ? (
                <div role="group" aria-label={`Discard the ${DRAFT_FORM_NAMES[draft.form]} for ${patient.name}?`}>
                  <p style={{ margin: '0.5rem 0' }}>Discard this draft? What you typed cannot be brought back.</p>
                  <Row>
                    <Button
                      type="button"
                      $variant="danger"
                      busy={discard.isPending}
                      onClick={() => discard.mutate(draft, { onSuccess: () => setConfirming(null) })}
                    >
                      Yes, discard it
                    </Button>
                    <Button type="button" $variant="secondary" onClick={() => setConfirming(null)}>
                      Keep it
                    </Button>
                  </Row>
                </div>
              ) : (
                <Row style={{ marginTop: '0.5rem' }}>
                  <Button
                    type="button"
                    onClick={() => navigate(DRAFT_FORM_PATHS[draft.form](draft.patientId), { state: RESUME_DRAFT })}
                  >
                    Resume
                  </Button>
                  <Button type="button" $variant="secondary" onClick={() => setConfirming(key)}>
                    Discard
                  </Button>
                </Row>
              )}
            </li>
          );
        })}
      </ul>
      {discard.isError && <Banner tone="error">Could not discard the draft. Try again?</Banner>}
    </Notice>
  );
}
