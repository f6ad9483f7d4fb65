import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from '@careloop/shared-router';
import styled from 'styled-components';
import type { Role } from '@careloop/shared-contracts';
import { serverError, useRevokeAssignment } from '@careloop/shared-auth';
import { Banner, Button, Card, EmptyState, LoadFailed, Row } from './components';
import { PatientIdentity, patientIdentityText, type PatientIdentityFacts } from './PatientIdentity';
import { theme } from './theme';

// The dashboards' lists of care relationships, apart from the connect form (Connections.tsx): a
// dashboard loads no form library and no schema.

/** A list of people or requests, one per row, with their actions on the right. */
export const Items = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    align-items: center;
    gap: 0.75rem;
    padding: 0.9rem 0;
    border-bottom: 1px solid ${theme.color.border};
  }
  small {
    display: block;
    color: ${theme.color.muted};
  }
`;

/** What revoking says for each role: a patient ends a doctor's access, a doctor releases a patient. */
const REVOKE: Record<Role, { button: string; question: (name: string) => string }> = {
  patient: { button: 'End access', question: (name) => `End ${name}'s access to your records?` },
  doctor: { button: 'Release', question: (name) => `Release ${name}? You will no longer see their records.` },
};

/**
 * The people on the other side of the caller's care relationships, on the dashboard. Given the
 * caller's role, each person has a button to end the connection, asked again before anything is sent.
 */
export function AssignedPeople({
  title,
  people,
  empty,
  role,
  linkTo,
  intro,
  failed,
}: {
  title: string;
  /** a line under the title (the doctor's worklist: its order) */
  intro?: ReactNode;
  /** identity: a doctor's patient's date of birth and e-mail, shown with the name */
  people?: Person[];
  empty: string;
  /** the signed-in caller's role: offers End access (patient) or Release (doctor) per person */
  role?: Role;
  /** where a person's name leads, by id (a doctor's patient: that patient's records) */
  linkTo?: (id: string) => string;
  /** the people could not be loaded: what to say, and how to ask again (never a card left busy) */
  failed?: { text: string; onRetry?: () => void };
}) {
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  return (
    <Card aria-label={title} aria-busy={!people && !failed}>
      <h2 style={{ fontSize: '1.15rem', margin: '0 0 0.4rem' }}>{title}</h2>
      {intro && <p style={{ margin: '0 0 0.4rem' }}>{intro}</p>}
      {result && <Banner tone={result.tone}>{result.text}</Banner>}
      {!people ? (
        failed && <LoadFailed text={failed.text} onRetry={failed.onRetry} />
      ) : people.length === 0 ? (
        <EmptyState>{empty}</EmptyState>
      ) : (
        <Items>
          {people.map((p) =>
            role ? (
              <RevocablePerson key={p.id} role={role} person={p} href={linkTo?.(p.id)} onResult={setResult} />
            ) : (
              <li key={p.id}>
                <span>
                  {linkTo ? <Link to={linkTo(p.id)}>{personLabel(p)}</Link> : personLabel(p)}
                  {p.details}
                </span>
              </li>
            ),
          )}
        </Items>
      )}
    </Card>
  );
}

type Person = {
  id: string;
  name: string;
  identity?: PatientIdentityFacts;
  /** shown under the link, outside it (the worklist's score, change and last record) */
  details?: ReactNode;
};
const personLabel = (p: Person) => (p.identity ? <PatientIdentity patient={p.identity} as="span" /> : p.name);

/** One person with End access / Release, and the confirm step (the question, the action again, Cancel). */
function RevocablePerson({
  role,
  person,
  href,
  onResult,
}: {
  role: Role;
  person: Person;
  href?: string;
  onResult: (result: { tone: 'success' | 'error'; text: string } | null) => void;
}) {
  const revoke = useRevokeAssignment(role);
  const [confirming, setConfirming] = useState(false);
  const questionId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const { button, question } = REVOKE[role];
  // The question takes focus on its safe answer, so a keyboard user hears it and Enter does no harm.
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  async function confirm() {
    onResult(null);
    try {
      const { message } = await revoke.mutateAsync(person.id);
      onResult({ tone: 'success', text: message });
    } catch (err) {
      onResult({ tone: 'error', text: `Error: ${(await serverError(err)) ?? 'Could not end the connection'}` });
      setConfirming(false);
    }
  }

  return (
    <li>
      <span>
        {href ? <Link to={href}>{personLabel(person)}</Link> : personLabel(person)}
        {person.details}
      </span>
      {confirming ? (
        <div role="group" aria-labelledby={questionId}>
          <p id={questionId} style={{ margin: '0 0 0.5rem' }}>
            {question(person.name)}
          </p>
          <Row>
            <Button type="button" $variant="danger" busy={revoke.isPending} onClick={() => void confirm()}>
              {button}
            </Button>
            <Button ref={cancelRef} type="button" $variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </Row>
        </div>
      ) : (
        <Button
          type="button"
          $variant="secondary"
          aria-label={`${button}: ${person.identity ? patientIdentityText(person.identity) : person.name}`}
          onClick={() => {
            onResult(null);
            setConfirming(true);
          }}
        >
          {button}
        </Button>
      )}
    </li>
  );
}
