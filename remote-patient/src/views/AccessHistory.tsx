import { useState } from 'react';
import type { AuditAction, AuditEntity } from 'shared-contracts';
import { useAccessHistory } from 'shared-auth';
import { Button, Card, EmptyState, Heading, Page, Row } from 'shared-ui';

const ACTIONS: Record<AuditAction, string> = {
  read: 'viewed',
  list: 'listed',
  create: 'created',
  update: 'changed',
  summarize: 'generated a summary of',
  revoke: 'ended',
};
const ENTITIES: Record<AuditEntity, [one: string, many: string]> = {
  medical_record: ['a medical record', 'your medical records'],
  prescription: ['a prescription', 'your prescriptions'],
  medical_file: ['a medical file', 'your medical files'],
  reminder: ['a reminder', 'your reminders'],
  assignment: ['a connection', 'your connections'],
};
/** Where an action reads differently for one entity: a reminder is only ever changed by cancelling it. */
const ACTION_OF: Partial<Record<AuditEntity, Partial<Record<AuditAction, string>>>> = {
  reminder: { create: 'scheduled', update: 'cancelled' },
};

/** "viewed a medical record", "listed your medical files", "cancelled a reminder", "released you". */
export function describeAccess({
  action,
  entity,
  entityId,
  actorRole,
}: {
  action: AuditAction;
  entity: AuditEntity;
  entityId: string | null;
  actorRole?: 'patient' | 'doctor';
}) {
  // A revoked connection (its entityId is the doctor): the patient ended a doctor's access, or the doctor released the patient.
  if (action === 'revoke' && entity === 'assignment' && entityId) {
    return actorRole === 'doctor' ? 'released you as a patient' : 'ended access for a doctor';
  }
  const [one, many] = ENTITIES[entity];
  return `${ACTION_OF[entity]?.[action] ?? ACTIONS[action]} ${entityId ? one : many}`;
}

/** /patient/access-history: who read or changed this patient's data, and when (from the audit log). */
export default function AccessHistory() {
  const [page, setPage] = useState(1);
  const { data } = useAccessHistory(page);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  return (
    <Page>
      <Heading>Access history</Heading>
      <p>
        Every time someone opens, lists or changes your records, prescriptions or files, or a connection with a doctor ends,
        CareLoop notes who and when.
      </p>
      <Card>
        {data?.items.length === 0 && <EmptyState>Nobody has accessed your medical data yet.</EmptyState>}
        {data && data.items.length > 0 && (
          <table style={{ width: '100%', borderCollapse: 'collapse' }} aria-label="Access history">
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
                  <td style={{ padding: '0.5rem 0.5rem 0.5rem 0' }}>{new Date(e.at).toLocaleString()}</td>
                  <td>
                    {e.actorName} <small>({e.actorRole === 'doctor' ? 'doctor' : 'you'})</small>
                  </td>
                  <td>{describeAccess(e)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {pages > 1 && (
          <Row style={{ marginTop: '1rem' }}>
            <Button type="button" $variant="secondary" disabled={page === 1} onClick={() => setPage(page - 1)}>
              Newer
            </Button>
            <span>
              Page {page} of {pages}
            </span>
            <Button type="button" $variant="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Older
            </Button>
          </Row>
        )}
      </Card>
    </Page>
  );
}
