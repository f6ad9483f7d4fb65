import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from '@careloop/shared-router';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { ConnectRequestForm, RequestList } from './Connections';

const REQUEST = {
  _id: '3f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a33',
  doctor: { name: 'Dr. Lee', email: 'lee@example.com', registration: { register: 'GMC', number: '1234567', verified: true } },
  patient: { name: 'Asha Rao', email: 'asha@example.com' },
};
let incoming = [REQUEST];
let respondStatus = 200;
let fake: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  fake = await startFakeApi({
    'POST /doctor/requestPatient': (r) =>
      (r.body as { email: string }).email === 'asha@example.com'
        ? { status: 201, body: { message: 'Request sent to Asha Rao.' } }
        : { status: 404, body: { error: 'No patient with this e-mail' } },
    'GET /patient/receivedRequests': () => ({ status: 200, body: incoming }),
    'GET /patient/sentRequests': { status: 200, body: [REQUEST] },
    [`PATCH /patient/responseRequest/${REQUEST._id}`]: () => {
      if (respondStatus !== 200) return { status: respondStatus, body: { error: 'Request not found' } };
      incoming = [];
      return { status: 200, body: { message: 'Request accepted.' } };
    },
    'GET /patient/me': { status: 200, body: { patient: { assignedDoctors: [] }, profileUrl: null } },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  incoming = [REQUEST];
  respondStatus = 200;
  useSession.getState().login('t', 'patient');
});

const renderView = (view: React.ReactNode) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>{view}</MemoryRouter>
    </QueryClientProvider>,
  );

test('a sent request shows the answer in green; an unknown e-mail shows "Error: " and the server text', async () => {
  renderView(<ConnectRequestForm role="doctor" />);
  fireEvent.change(screen.getByLabelText("Patient's email"), { target: { value: 'asha@example.com' } });
  fireEvent.click(screen.getByRole('button', { name: 'Send request' }));
  const ok = await screen.findByRole('status');
  expect(ok).toHaveTextContent('Request sent to Asha Rao.');
  expect(ok).toHaveStyle({ color: 'rgb(21, 128, 61)' });
  fireEvent.change(screen.getByLabelText("Patient's email"), { target: { value: 'nobody@example.com' } });
  fireEvent.click(screen.getByRole('button', { name: 'Send request' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Error: No patient with this e-mail');
});

test('a blocked sender sees why, and Send request is disabled', () => {
  renderView(<ConnectRequestForm role="doctor" blockedReason="Your registration awaits verification." />);
  const send = screen.getByRole('button', { name: 'Send request' });
  expect(send).toBeDisabled();
  expect(send).toHaveAccessibleDescription('Your registration awaits verification.');
});

test("a malformed e-mail is refused by the api's schema beside the field and not sent", async () => {
  renderView(<ConnectRequestForm role="doctor" />);
  fireEvent.change(screen.getByLabelText("Patient's email"), { target: { value: 'asha' } });
  fireEvent.click(screen.getByRole('button', { name: 'Send request' }));
  await waitFor(() => expect(screen.getByLabelText("Patient's email")).toHaveAccessibleDescription('Invalid e-mail address'));
  expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
});

test('incoming requests offer Accept and Cancel; accepting refetches the list after 400 ms', async () => {
  renderView(<RequestList role="patient" direction="incoming" />);
  const list = await screen.findByRole('list', { name: 'Incoming requests' });
  expect(within(list).getByText('Dr. Lee')).toBeInTheDocument();
  expect(within(list).getByText('lee@example.com')).toBeInTheDocument();
  // The patient sees whether the doctor's professional registration was verified.
  expect(within(list).getByText('Registration GMC 1234567, verified')).toBeInTheDocument();
  expect(within(list).queryByText(/pending/i)).not.toBeInTheDocument();
  fireEvent.click(within(list).getByRole('button', { name: 'Accept' }));
  await waitFor(() => expect(fake.requests.some((r) => r.method === 'PATCH')).toBe(true));
  expect(fake.requests.find((r) => r.method === 'PATCH')!.body).toEqual({ action: 'accept' });
  const listReads = () => fake.requests.filter((r) => r.path === '/patient/receivedRequests').length;
  expect(listReads()).toBe(1);
  expect(await screen.findByText("You're all caught-up :-)", {}, { timeout: 3000 })).toBeInTheDocument();
  expect(listReads()).toBe(2);
});

test('Cancel sends reject; a failure says "Error: Could not handle request"', async () => {
  respondStatus = 404;
  renderView(<RequestList role="patient" direction="incoming" />);
  const list = await screen.findByRole('list', { name: 'Incoming requests' });
  fireEvent.click(within(list).getByRole('button', { name: 'Cancel' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Error: Could not handle request');
  expect(fake.requests.find((r) => r.method === 'PATCH')!.body).toEqual({ action: 'reject' });
});

test('outgoing requests offer Cancel only', async () => {
  renderView(<RequestList role="patient" direction="outgoing" />);
  const list = await screen.findByRole('list', { name: 'Outgoing requests' });
  expect(within(list).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  expect(within(list).queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
});

test('an empty list is "all caught-up"', async () => {
  incoming = [];
  renderView(<RequestList role="patient" direction="incoming" />);
  expect(await screen.findByText("You're all caught-up :-)")).toBeInTheDocument();
});
