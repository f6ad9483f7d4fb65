import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { Role } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, profileKey, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { AssignedPeople } from './AssignedPeople';

const DOCTOR = { id: '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44', name: 'Dr. Lee' };
const PATIENT = { id: '6b2d2f5f-9b5c-4a1f-8b4a-3a2a6f2d1b55', name: 'Asha Rao' };
let people: Record<Role, { id: string; name: string }[]>;
let revokeStatus = 200;
let fake: Awaited<ReturnType<typeof startFakeApi>>;

/** DELETE answers as the api does: the person leaves the caller's list, or 404 `error`. */
const revoke = (role: Role, id: string, message: string, notFound: string) => () => {
  if (revokeStatus !== 200) return { status: revokeStatus, body: { error: notFound } };
  people[role] = people[role].filter((p) => p.id !== id);
  return { status: 200, body: { message } };
};

beforeAll(async () => {
  fake = await startFakeApi({
    'GET /patient/me': () => ({ status: 200, body: people.patient }),
    'GET /doctor/me': () => ({ status: 200, body: people.doctor }),
    [`DELETE /patient/doctors/${DOCTOR.id}`]: revoke('patient', DOCTOR.id, 'Access ended.', 'Doctor not found'),
    [`DELETE /doctor/patients/${PATIENT.id}`]: revoke('doctor', PATIENT.id, 'Patient released.', 'Patient not found'),
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  people = { patient: [DOCTOR], doctor: [PATIENT] };
  revokeStatus = 200;
});

/** The dashboard's list, read under the profile's query key (what the mutation refetches). */
function Listed({ role }: { role: Role }) {
  const { data } = useQuery({
    queryKey: profileKey(role),
    queryFn: async () => (await fetch(`${fake.url}/${role}/me`)).json() as Promise<{ id: string; name: string }[]>,
  });
  return <AssignedPeople title="Assigned" empty="Nobody yet" people={data} role={role} />;
}

function renderList(role: Role) {
  useSession.getState().login('t', role);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Listed role={role} />
    </QueryClientProvider>,
  );
}
const deletes = () => fake.requests.filter((r) => r.method === 'DELETE');
const profileReads = (role: Role) => fake.requests.filter((r) => r.path === `/${role}/me`).length;

test('a patient ends a doctor’s access only after confirming; the list is read again', async () => {
  renderList('patient');
  fireEvent.click(await screen.findByRole('button', { name: 'End access: Dr. Lee' }));
  const ask = screen.getByRole('group', { name: "End Dr. Lee's access to your records?" });
  expect(within(ask).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  expect(deletes()).toHaveLength(0);

  fireEvent.click(within(ask).getByRole('button', { name: 'End access' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Access ended.');
  expect(deletes().map((r) => r.path)).toEqual([`/patient/doctors/${DOCTOR.id}`]);
  expect(await screen.findByText('Nobody yet')).toBeInTheDocument();
  expect(profileReads('patient')).toBe(2);
});

test('Cancel sends nothing and puts the button back', async () => {
  renderList('patient');
  fireEvent.click(await screen.findByRole('button', { name: 'End access: Dr. Lee' }));
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(screen.queryByRole('group')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'End access: Dr. Lee' })).toBeInTheDocument();
  expect(deletes()).toHaveLength(0);
});

test('a doctor releases a patient after confirming', async () => {
  renderList('doctor');
  fireEvent.click(await screen.findByRole('button', { name: 'Release: Asha Rao' }));
  const ask = screen.getByRole('group', { name: 'Release Asha Rao? You will no longer see their records.' });
  fireEvent.click(within(ask).getByRole('button', { name: 'Release' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Patient released.');
  expect(deletes().map((r) => r.path)).toEqual([`/doctor/patients/${PATIENT.id}`]);
  await waitFor(() => expect(screen.queryByText('Asha Rao')).not.toBeInTheDocument());
});

test('a refusal shows "Error: " and the server text; the person stays', async () => {
  revokeStatus = 404;
  renderList('patient');
  fireEvent.click(await screen.findByRole('button', { name: 'End access: Dr. Lee' }));
  fireEvent.click(within(screen.getByRole('group')).getByRole('button', { name: 'End access' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Error: Doctor not found');
  expect(screen.getByText('Dr. Lee')).toBeInTheDocument();
});

test('without a role the list only names the people', async () => {
  render(<AssignedPeople title="Assigned" empty="Nobody yet" people={[DOCTOR]} />);
  expect(screen.getByText('Dr. Lee')).toBeInTheDocument();
  expect(screen.queryByRole('button')).not.toBeInTheDocument();
});
