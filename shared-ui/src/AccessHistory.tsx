import { useState } from 'react';
import type { AuditAction, AuditEntity, AuditEntry, AuditKind, Role, SecurityAction } from '@careloop/shared-contracts';
import { useAccessHistory } from '@careloop/shared-auth';
import { Button, Card, EmptyState, Heading, Page, Row } from './components';
import { NewerOlder } from './NewerOlder';
import { ClinicTimeZoneNote, useClinicTime } from './dates';

const ACTIONS: Record<AuditAction, string> = {
  read: 'viewed',
  list: 'listed',
  create: 'created',
  update: 'changed',
  summarize: 'generated a summary of',
  revoke: 'ended',
  override: 'overrode a stop alert to create',
  denied: 'was refused access to',
  // security events read as whole sentences (describeSecurity); these are never shown with an entity
  'sign-in': 'signed in to',
  'sign-in-failed': 'tried to sign in to',
  'sign-out': 'signed out of',
  '2fa-on': 'turned two-factor on for',
  '2fa-off': 'turned two-factor off for',
  'password-change': 'changed the password of',
  'email-change': 'changed the e-mail of',
  'password-reset': 'reset the password of',
  'email-verify': 'verified the e-mail of',
  'sessions-ended': 'signed out sessions of',
  'recovery-code-sign-in': 'signed in with a recovery code to',
  'recovery-codes': 'made new recovery codes for',
  'email-change-withdrawn': 'withdrew an e-mail change of',
  takeover: 'took over',
  'registration-verified': 'verified the professional registration of',
};
const ENTITIES: Record<AuditEntity, [one: string, many: string]> = {
  medical_record: ['a medical record', 'your medical records'],
  prescription: ['a prescription', 'your prescriptions'],
  medical_file: ['a medical file', 'your medical files'],
  reminder: ['a reminder', 'your reminders'],
  assignment: ['a connection', 'your connections'],
  account: ['your profile', 'your profile'],
  allergy_intolerance: ['a record of an allergy', 'your allergies'],
  pregnancy: ['a pregnancy status', 'your pregnancy status'],
};
/** Where an action reads differently for one entity: a reminder is only ever changed by cancelling it. */
const ACTION_OF: Partial<Record<AuditEntity, Partial<Record<AuditAction, string>>>> = {
  reminder: { create: 'scheduled', update: 'cancelled' },
  prescription: { update: 'stopped' },
};

/** The security log's events, as the owner reads them. */
const SECURITY: Record<SecurityAction, string> = {
  'sign-in': 'You signed in',
  'sign-in-failed': 'Someone tried to sign in with a wrong password',
  'sign-out': 'You signed out',
  '2fa-on': 'Two-factor turned on',
  '2fa-off': 'Two-factor turned off',
  'password-change': 'Password changed',
  'email-change': 'E-mail address changed',
  'password-reset': 'Password reset from an e-mailed link',
  'email-verify': 'E-mail address verified',
  'sessions-ended': 'Other sessions signed out',
  'recovery-code-sign-in': 'Signed in with a recovery code',
  'recovery-codes': 'New recovery codes made',
  'email-change-withdrawn': 'E-mail change withdrawn',
  takeover: 'Account taken over by the owner of its e-mail address and cleared of what was set before',
  'registration-verified': 'Professional registration verified by an operator',
};

/** "You signed in", "Two-factor turned off": a security event of the account itself. */
export function describeSecurity(action: SecurityAction): string {
  return SECURITY[action];
}

/** "viewed a medical record", "listed your medical files", "cancelled a reminder", "released you". */
export function describeAccess({
  action,
  entity,
  entityId,
  actorRole,
  viewer = 'patient',
}: {
  action: AuditAction;
  entity: AuditEntity;
  entityId: string | null;
  actorRole?: Role;
  /** whose history shows the row: a revoked connection reads differently from each side */
  viewer?: Role;
}) {
  // A revoked connection (its entityId is the doctor): the patient ended a doctor's access, or the doctor released the patient.
  if (action === 'revoke' && entity === 'assignment' && entityId) {
    if (viewer === 'doctor') return actorRole === 'doctor' ? 'released a patient' : 'ended your access to their records';
    return actorRole === 'doctor' ? 'released you as a patient' : 'ended access for a doctor';
  }
  // a refusal is recorded against the patient as a whole (its detail names the endpoint asked)
  if (action === 'denied' && entity === 'account') return 'was refused access to your data';
  const [one, many] = ENTITIES[entity];
  return `${ACTION_OF[entity]?.[action] ?? ACTIONS[action]} ${entityId ? one : many}`;
}

function Who({ entry, role }: { entry: AuditEntry; role: Role }) {
  // A failed sign-in was not necessarily the owner: the account is the subject, not the actor.
  if (entry.kind === 'security' && entry.action === 'sign-in-failed') return <>Someone</>;
  return (
    <>
      {entry.actorName} <small>({entry.actorRole === role ? 'you' : entry.actorRole})</small>
    </>
  );
}

function What({ entry, role }: { entry: AuditEntry; role: Role }) {
  // An override, a stopped prescription and a refuted allergy keep the doctor's reason: shown with the row.
  if (entry.action === 'override' || (entry.action === 'update' && entry.detail))
    return (
      <>
        {describeAccess({ ...entry, viewer: role })}
        {entry.detail && (
          <>
            <br />
            <small>Reason: {entry.detail}</small>
          </>
        )}
      </>
    );
  if (entry.kind !== 'security') return <>{describeAccess({ ...entry, viewer: role })}</>;
  return (
    <>
      {describeSecurity(entry.action as SecurityAction)}
      {entry.ip && <small> (from {entry.ip})</small>}
    </>
  );
}

const INTRO: Record<Role, string> = {
  patient:
    'Every time someone opens, lists or changes your records, prescriptions or files, or a connection with a doctor ends, CareLoop notes who and when — and why, when a doctor overrode a medication stop alert. Sign-ins, failed sign-ins and changes to your password, e-mail or two-factor are listed too.',
  doctor:
    'Sign-ins, failed sign-ins and changes to your password, e-mail or two-factor, with when and from where — every connection with a patient that ended, whoever ended it — and every stop alert you overrode, with your reason.',
};

/** The filter's choices: everything, data access, or the account's security log (sign-ins first to find). */
const FILTERS: Record<Role, [AuditKind | undefined, string][]> = {
  patient: [
    [undefined, 'Everything'],
    ['access', 'Access to your data'],
    ['security', 'Sign-ins and account changes'],
  ],
  doctor: [
    [undefined, 'Everything'],
    ['access', 'Ended connections and overrides'],
    ['security', 'Sign-ins and account changes'],
  ],
};

/**
 * /{role}/access-history: the patient's data-access rows and security log, or the doctor's
 * security log (from the append-only audit log), newest first.
 */
export function AccessHistoryView({ role }: { role: Role }) {
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<AuditKind | undefined>();
  const { data, isPlaceholderData } = useAccessHistory(page, role, kind);
  const { format: formatDateTime } = useClinicTime();
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  return (
    <Page>
      <Heading>Access history</Heading>
      <p>{INTRO[role]}</p>
      <ClinicTimeZoneNote />
      <Card>
        <Row role="group" aria-label="Show" style={{ marginBottom: '1rem' }}>
          {FILTERS[role].map(([value, label]) => (
            <Button
              key={label}
              type="button"
              $variant={kind === value ? 'primary' : 'secondary'}
              aria-pressed={kind === value}
              onClick={() => {
                setKind(value);
                setPage(1);
              }}
            >
              {label}
            </Button>
          ))}
        </Row>
        {data?.items.length === 0 && (
          <EmptyState>
            {kind === 'security'
              ? 'No sign-ins or account changes recorded yet.'
              : role === 'patient'
                ? 'Nobody has accessed your medical data yet.'
                : 'Nothing recorded yet.'}
          </EmptyState>
        )}
        {data && data.items.length > 0 && (
          <table
            style={{ width: '100%', borderCollapse: 'collapse', opacity: isPlaceholderData ? 0.6 : 1 }}
            aria-label="Access history"
            aria-busy={isPlaceholderData}
          >
            <thead>
              <tr style={{ textAlign: 'left' }}>
                <th>When</th>
                <th>Who</th>
                <th>What</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((e, i) => (
                <tr key={`${e.at}-${i}`} style={{ borderTop: '1px solid #d9e2ec' }}>
                  <td style={{ padding: '0.5rem 0.5rem 0.5rem 0' }}>{formatDateTime(e.at)}</td>
                  <td>
                    <Who entry={e} role={role} />
                  </td>
                  <td>
                    <What entry={e} role={role} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <NewerOlder page={page} pages={pages} setPage={setPage} />
      </Card>
    </Page>
  );
}
