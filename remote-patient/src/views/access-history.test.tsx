import { render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { AUDIT_ENTITIES, DATA_ACTIONS, type AuditEntry } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../../test-support/fake-api';
import AccessHistory, { describeAccess } from './AccessHistory';

const ID = '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44';
const byDoctor = {
  at: '2026-11-20T10:00:00.000Z',
  actorName: 'Dr. Lee',
  actorRole: 'doctor',
  kind: 'access',
  ip: '127.0.0.1',
  detail: null,
} as const;
const items: AuditEntry[] = [
  { ...byDoctor, action: 'update', entity: 'reminder', entityId: ID },
  { ...byDoctor, action: 'create', entity: 'reminder', entityId: ID },
  { ...byDoctor, action: 'read', entity: 'medical_record', entityId: ID },
  {
    at: '2026-11-19T09:00:00.000Z',
    actorName: 'Asha Rao',
    actorRole: 'patient',
    action: 'list',
    entity: 'medical_file',
    entityId: null,
    kind: 'access',
    ip: '127.0.0.1',
    detail: null,
  },
];
let fake: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  fake = await startFakeApi({ 'GET /patient/audit': { status: 200, body: { items, page: 1, limit: 20, total: items.length } } });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => useSession.getState().login('t', 'patient'));

test('each access reads as who did what, a doctor scheduling and cancelling a reminder included', async () => {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AccessHistory />
    </QueryClientProvider>,
  );
  const table = await screen.findByRole('table', { name: 'Access history' });
  const rows = within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(1)
        .map((c) => c.textContent),
    );
  expect(rows).toEqual([
    ['Dr. Lee (doctor)', 'cancelled a reminder'],
    ['Dr. Lee (doctor)', 'scheduled a reminder'],
    ['Dr. Lee (doctor)', 'viewed a medical record'],
    ['Asha Rao (you)', 'listed your medical files'],
  ]);
});

test("every data-access action of every entity the contract's audit log knows has words", () => {
  // the security log's actions (entity 'account') read as sentences: shared-ui/src/access-history.test.tsx
  for (const entity of AUDIT_ENTITIES.filter((e) => e !== 'account')) {
    for (const action of DATA_ACTIONS) {
      expect(describeAccess({ action, entity, entityId: ID })).toMatch(/^[a-z][a-z ]+ a [a-z ]+$/);
      expect(describeAccess({ action, entity, entityId: null })).toMatch(/^[a-z][a-z ]+ your [a-z ]+s$/);
    }
  }
  expect(describeAccess({ action: 'summarize', entity: 'medical_record', entityId: ID })).toBe(
    'generated a summary of a medical record',
  );
});

test('a revoked connection reads as the patient ending a doctor’s access, or the doctor releasing the patient', () => {
  const revoke = { action: 'revoke', entity: 'assignment', entityId: ID } as const;
  expect(describeAccess({ ...revoke, actorRole: 'patient' })).toBe('ended access for a doctor');
  expect(describeAccess({ ...revoke, actorRole: 'doctor' })).toBe('released you as a patient');
  // The same rows as the doctor reads them on their own access history.
  expect(describeAccess({ ...revoke, actorRole: 'patient', viewer: 'doctor' })).toBe('ended your access to their records');
  expect(describeAccess({ ...revoke, actorRole: 'doctor', viewer: 'doctor' })).toBe('released a patient');
});
