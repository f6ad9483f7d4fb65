import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { SECURITY_ACTIONS, type AuditEntry, type Role } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { AccessHistoryView, describeSecurity } from './AccessHistory';

const PATIENT = '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44';
const DOCTOR = '7b2d2f5f-9b5c-4a1f-8b4a-3a2a6f2d1b55';
const security = (role: Role, id: string, name: string, action: AuditEntry['action'], ip: string | null): AuditEntry => ({
  at: '2026-11-21T08:00:00.000Z',
  actorName: name,
  actorRole: role,
  action,
  entity: 'account',
  entityId: id,
  kind: 'security',
  ip,
  detail: null,
});
const patientItems: AuditEntry[] = [
  security('patient', PATIENT, 'Asha Rao', '2fa-off', '10.1.2.3'),
  security('patient', PATIENT, 'Asha Rao', 'sign-in-failed', '203.0.113.9'),
  security('patient', PATIENT, 'Asha Rao', 'sign-in', null),
  {
    at: '2026-11-20T10:00:00.000Z',
    actorName: 'Dr. Lee',
    actorRole: 'doctor',
    action: 'read',
    entity: 'medical_record',
    entityId: PATIENT,
    kind: 'access',
    ip: '127.0.0.1',
    detail: null,
  },
];
/** A doctor proceeding past a stop alert: the reason is kept and shown to both sides. */
const override: AuditEntry = {
  at: '2026-11-20T09:00:00.000Z',
  actorName: 'Dr. Lee',
  actorRole: 'doctor',
  action: 'override',
  entity: 'prescription',
  entityId: PATIENT,
  kind: 'access',
  ip: '127.0.0.1',
  detail: 'Tolerated amoxicillin in 2024 (stop alert: Penicillin)',
};
/** A stopped prescription keeps its reason too. */
const stopped: AuditEntry = { ...override, action: 'update', detail: 'Rash on day 2' };
patientItems.push(override, stopped);
const doctorItems: AuditEntry[] = [security('doctor', DOCTOR, 'Dr. Lee', 'password-change', '10.9.9.9'), override];

let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  // answers like the api: ?kind= keeps that kind of row only
  const page = (all: AuditEntry[]) => (req: { path: string }) => {
    const kind = new URL(req.path, 'http://x').searchParams.get('kind');
    const items = kind ? all.filter((e) => e.kind === kind) : all;
    return { status: 200, body: { items, page: 1, limit: 20, total: items.length } };
  };
  fake = await startFakeApi({ 'GET /patient/audit': page(patientItems), 'GET /doctor/audit': page(doctorItems) });
  configureApi(fake.url);
});
afterAll(() => fake.close());

async function rowsOf(role: Role) {
  useSession.getState().login('t', role);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AccessHistoryView role={role} />
    </QueryClientProvider>,
  );
  const table = await screen.findByRole('table', { name: 'Access history' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(1)
        .map((c) => c.textContent),
    );
}

test('the patient sees security events beside data access; a failed sign-in is “someone”, with its address', async () => {
  expect(await rowsOf('patient')).toEqual([
    ['Asha Rao (you)', 'Two-factor turned off (from 10.1.2.3)'],
    ['Someone', 'Someone tried to sign in with a wrong password (from 203.0.113.9)'],
    ['Asha Rao (you)', 'You signed in'],
    ['Dr. Lee (doctor)', 'viewed a medical record'],
    [
      'Dr. Lee (doctor)',
      'overrode a stop alert to create a prescriptionReason: Tolerated amoxicillin in 2024 (stop alert: Penicillin)',
    ],
    ['Dr. Lee (doctor)', 'stopped a prescriptionReason: Rash on day 2'],
  ]);
});

test('the doctor’s page reads the doctor’s own security log and overrides from GET /doctor/audit', async () => {
  expect(await rowsOf('doctor')).toEqual([
    ['Dr. Lee (you)', 'Password changed (from 10.9.9.9)'],
    [
      'Dr. Lee (you)',
      'overrode a stop alert to create a prescriptionReason: Tolerated amoxicillin in 2024 (stop alert: Penicillin)',
    ],
  ]);
});

test('every security action has a sentence', () => {
  for (const action of SECURITY_ACTIONS) expect(describeSecurity(action)).toMatch(/^[A-Z][A-Za-z -]+$/);
  expect(describeSecurity('sign-in')).toBe('You signed in');
  expect(describeSecurity('sign-in-failed')).toBe('Someone tried to sign in with a wrong password');
  expect(describeSecurity('2fa-off')).toBe('Two-factor turned off');
});

test('the filter shows sign-ins and account changes alone, or data access alone, asking the api for that kind', async () => {
  await rowsOf('patient');
  const show = screen.getByRole('group', { name: 'Show' });
  fireEvent.click(within(show).getByRole('button', { name: 'Sign-ins and account changes' }));
  await waitFor(() => expect(within(screen.getByRole('table', { name: 'Access history' })).getAllByRole('row')).toHaveLength(4));
  expect(within(show).getByRole('button', { name: 'Sign-ins and account changes' })).toHaveAttribute('aria-pressed', 'true');
  expect(fake.requests.at(-1)!.path).toMatch(/[?&]kind=security(&|$)/);
  fireEvent.click(within(show).getByRole('button', { name: 'Access to your data' }));
  expect(await screen.findByText('viewed a medical record')).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByText('You signed in')).not.toBeInTheDocument());
  expect(fake.requests.at(-1)!.path).toMatch(/[?&]kind=access(&|$)/);
});
