import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter, useLocation } from '@careloop/shared-router';
import type { DraftSummary } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../../test-support/fake-api';
import { doctorMe } from '../../../test-support/fixtures';
import { UnfinishedDrafts } from './UnfinishedDrafts';

const MARIA = '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a01';
const MARIA_TOO = '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a02';
const GONE = '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a03';
const HOURS_AGO = (h: number) => new Date(Date.now() - h * 3_600_000 - 60_000).toISOString();

let drafts: DraftSummary[];
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'GET /doctor/drafts': () => ({ status: 200, body: { drafts } }),
    'GET /clinic': { status: 200, body: { timeZone: 'Europe/London' } },
    'GET /doctor/me': {
      status: 200,
      body: doctorMe({
        assignedPatients: [
          { patient: MARIA, name: 'Maria Lopez', DOB: '1985-03-12', email: 'maria@example.com' },
          { patient: MARIA_TOO, name: 'Maria Lopez', DOB: '1990-07-01', email: 'm.lopez@example.com' },
        ],
      }),
    },
    [`DELETE /doctor/drafts/prescription/${MARIA_TOO}`]: () => {
      drafts = drafts.filter((d) => d.patientId !== MARIA_TOO);
      return { status: 204 };
    },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  useSession.getState().login('t', 'doctor');
  drafts = [
    { form: 'medical-record', patientId: MARIA, step: 4, savedAt: HOURS_AGO(2) },
    { form: 'prescription', patientId: MARIA_TOO, step: 0, savedAt: HOURS_AGO(26) },
    // a patient no longer in the doctor's list: not shown
    { form: 'prescription', patientId: GONE, step: 0, savedAt: HOURS_AGO(1) },
  ];
});

function Where() {
  const { pathname, state } = useLocation();
  return <p>{`at ${pathname} ${JSON.stringify(state)}`}</p>;
}

function renderNotice() {
  const router = createMemoryRouter(
    [
      { path: '/doctor/dashboard', element: <UnfinishedDrafts /> },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: ['/doctor/dashboard'] },
  );
  const queryClient = createQueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return queryClient;
}

const items = async () => within(await screen.findByRole('region', { name: 'Unfinished work' })).findAllByRole('listitem');

test('lists each unsent draft with the patient it is for, when it was left and where; two Maria Lopez are told apart', async () => {
  renderNotice();
  const [record, prescription] = await items();
  expect(record.textContent).toContain('Unfinished record for Maria Lopez, 2 hours ago, at step 5 of 8');
  expect(record.textContent).toContain('Born 12 Mar 1985');
  expect(prescription.textContent).toContain('Unfinished prescription for Maria Lopez, yesterday');
  expect(prescription.textContent).toContain('m.lopez@example.com');
  expect(await items()).toHaveLength(2);
});

test('Resume opens the form of that patient, asking it to restore the draft at once', async () => {
  renderNotice();
  const [record] = await items();
  fireEvent.click(within(record).getByRole('button', { name: 'Resume' }));
  expect(await screen.findByText(`at /medical-record/create/${MARIA} {"resumeDraft":true}`)).toBeTruthy();
});

test('Discard asks first; "Keep it" keeps it, "Yes, discard it" deletes it and the notice goes', async () => {
  renderNotice();
  const [, prescription] = await items();
  fireEvent.click(within(prescription).getByRole('button', { name: 'Discard' }));
  fireEvent.click(within(prescription).getByRole('button', { name: 'Keep it' }));
  expect(fake.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  fireEvent.click(within(prescription).getByRole('button', { name: 'Discard' }));
  fireEvent.click(within(prescription).getByRole('button', { name: 'Yes, discard it' }));
  await waitFor(() => expect(fake.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1));
  await waitFor(async () => expect(await items()).toHaveLength(1));
});

test('no draft: no notice', async () => {
  drafts = [];
  const queryClient = renderNotice();
  // both answers handled: the list (empty) and the profile the notice names patients from
  await waitFor(() => expect(queryClient.getQueryState(['drafts', 'list'])?.status).toBe('success'));
  await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  expect(screen.queryByRole('region', { name: 'Unfinished work' })).toBeNull();
});
