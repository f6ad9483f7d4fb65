import { Fragment, useId, type ReactNode } from 'react';
import styled from 'styled-components';
import type { Role } from '@careloop/shared-contracts';
import { ButtonLink, Card, LoadFailed, Row } from './components';
import { PendingEmailNotice } from './PendingEmailNotice';
import { theme } from './theme';

const Title = styled.h2`
  font-size: 1.15rem;
  margin: 0 0 0.4rem;
`;
const Text = styled.p`
  color: ${theme.color.muted};
  margin: 0 0 1rem;
`;

export interface CardAction {
  text: string;
  to: string;
}

/** A dashboard card: what it is, and where its buttons go. */
export function DashboardCard({
  title,
  text,
  actions,
  children,
}: {
  title: string;
  text: string;
  actions: CardAction[];
  children?: ReactNode;
}) {
  // an id from React, not from the title: "card-Medical Records" would be two id references
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <Title id={titleId}>{title}</Title>
      <Text>{text}</Text>
      {children}
      <Row>
        {actions.map((a, i) => (
          <ButtonLink key={a.to} to={a.to} $variant={i === 0 ? 'primary' : 'secondary'}>
            {a.text}
          </ButtonLink>
        ))}
      </Row>
    </Card>
  );
}

const State = styled.p<{ $on: boolean }>`
  margin: -0.5rem 0 1rem;
  font-weight: 600;
  color: ${({ $on }) => ($on ? theme.color.success : theme.color.muted)};
`;

/**
 * The dashboard's two-factor card, the same for both roles: whether it is on, and the way to set it
 * up or manage it. The state line keeps its height before the profile arrives (nothing moves).
 */
export function TwoFactorCard({ role, enabled }: { role: Role; enabled: boolean | undefined }) {
  return (
    <DashboardCard
      title="Two-Factor Authentication"
      text="Protect your account with a code from an authenticator app."
      actions={[
        { text: enabled ? 'Manage' : 'Set up', to: `/${role}/enable2fa` },
        { text: 'Signed-in devices', to: `/${role}/sessions` },
      ]}
    >
      <State $on={enabled === true} data-testid="two-factor-state">
        {enabled === undefined ? '\u00a0' : enabled ? 'On' : 'Off'}
      </State>
    </DashboardCard>
  );
}

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: 0.35rem 1rem;
  margin: 0 0 1rem;
  dt {
    color: ${theme.color.muted};
  }
  dd {
    margin: 0;
    font-weight: 600;
    /* Words wrap whole; only a single token longer than the line is broken (anywhere would split
       "example" mid-word). E-mails get their own break points below. */
    word-break: normal;
    overflow-wrap: break-word;
  }
  /* In a narrow card (the dashboard grid's 260 px column, a phone) the label goes above its
     value, so the value has the card's whole width instead of what the longest label leaves. */
  @container (max-width: 24rem) {
    grid-template-columns: minmax(0, 1fr);
    gap: 0;
    dd {
      margin-bottom: 0.5rem;
    }
  }
`;
/** The container the facts measure themselves against. */
const FactsBox = styled.div`
  container-type: inline-size;
`;

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** An e-mail with line-break opportunities after "@" and each dot, so it wraps as name@ / domain. */
export function EmailAddress({ email }: { email: string }) {
  const parts = email.split(/(?<=[@.])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  );
}

/**
 * Holds the profile card's place while the profile loads, so nothing below it moves (CLS). If it
 * could not be loaded, says so with a way to try again: never a blank card that looks like a wait.
 */
export function ProfilePlaceholder({ failed = false, onRetry }: { failed?: boolean; onRetry?: () => void }) {
  return (
    <Card aria-label="Profile summary" aria-busy={!failed} style={{ minHeight: 330 }}>
      {failed && <LoadFailed text="Could not load your profile." onRetry={onRetry} />}
    </Card>
  );
}

/** The profile summary at the top of both dashboards, with Edit (and a new e-mail waiting for its link). */
export function ProfileSummary({
  name,
  facts,
  editTo,
  pendingEmail,
}: {
  name: string;
  facts: [label: string, value: string | undefined | null][];
  editTo: string;
  pendingEmail?: string | null;
}) {
  return (
    <Card aria-label="Profile summary">
      <Title as="h2">{name}</Title>
      <FactsBox>
        <Facts>
          {facts.map(([label, value]) => (
            <div key={label} style={{ display: 'contents' }}>
              <dt>{label}</dt>
              <dd>{value && EMAIL.test(value) ? <EmailAddress email={value} /> : value || '—'}</dd>
            </div>
          ))}
        </Facts>
      </FactsBox>
      <PendingEmailNotice pendingEmail={pendingEmail} />
      <ButtonLink to={editTo} $variant="secondary">
        Edit
      </ButtonLink>
    </Card>
  );
}
