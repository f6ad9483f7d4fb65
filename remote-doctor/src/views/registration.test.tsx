import { render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { doctorMe } from '../../../test-support/fixtures';
import { startFakeApi } from '../../../test-support/fake-api';
import AssignPatients from './AssignPatients';
import Dashboard from './Dashboard';

/* Until an operator verifies the doctor's registration, the dashboard says why and sending is disabled. */

const AWAITING = 'Your registration GMC 1234567 is awaiting verification. You can send connection requests once it is verified.';
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'GET /doctor/me': {
      status: 200,
      body: doctorMe({ registration: { register: 'GMC', number: '1234567', verified: false }, mayRequestConnections: false }),
    },
    'GET /doctor/worklist': { status: 200, body: { items: [] } },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => useSession.getState().login('t', 'doctor'));

function renderAt(path: string, element: React.ReactNode) {
  const router = createMemoryRouter([{ path, element }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

test('the dashboard says the registration awaits verification', async () => {
  renderAt('/doctor/dashboard', <Dashboard />);
  expect(await screen.findByText(AWAITING)).toBeInTheDocument();
});

test('the connect form is disabled, described by the reason', async () => {
  renderAt('/doctor/assign-patients', <AssignPatients />);
  expect(await screen.findByText(AWAITING)).toBeInTheDocument();
  const send = screen.getByRole('button', { name: 'Send request' });
  expect(send).toBeDisabled();
  expect(send).toHaveAccessibleDescription(AWAITING);
});
