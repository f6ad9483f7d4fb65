import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { CURRENT_PASSWORD_WRONG } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { preloadPasswordJudge } from '@careloop/shared-ui';
import { startFakeApi } from '../../../test-support/fake-api';
import Dashboard from './Dashboard';
import EditProfile from './EditProfile';
import Signup from './Signup';

const patient = {
  _id: '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11',
  name: 'Asha Rao',
  email: 'asha@example.com',
  DOB: '1990-04-02',
  gender: 'Female',
  maritalStatus: 'Married',
  occupation: 'Teacher',
  address: { street: '12 Lake Rd', city: 'Pune', state: 'MH', pinCode: '411001' },
  profileComplete: true,
  twoFactorEnabled: false,
  emailVerified: true,
  assignedDoctors: [
    {
      doctor: '0b3c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a22',
      name: 'Dr. Lee',
      registration: { register: 'GMC', number: '1234567', verified: true },
    },
  ],
  pendingEmail: null as string | null,
};
let fake: Awaited<ReturnType<typeof startFakeApi>>;
let signupStatus = 201;
const patched = { status: 200, body: { patient, profileUrl: null } };
let patchReply: { status: number; body: unknown } = patched;
/** GET /patient/me's answer when set (else the patient) */
let meReply: { status: number; body: unknown } | null = null;

// zxcvbn's dictionaries load once, up front, not in the middle of a timed test.
beforeAll(() => preloadPasswordJudge(), 60_000);
beforeAll(async () => {
  fake = await startFakeApi({
    'POST /patient/signup': () =>
      signupStatus === 201
        ? { status: 201, body: { token: 'new-token', role: 'patient' } }
        : { status: signupStatus, body: { error: 'An account with this e-mail already exists' } },
    'GET /patient/me': () => meReply ?? { status: 200, body: { patient, profileUrl: null } },
    'PATCH /patient/me': () => patchReply,
    'DELETE /patient/me/pending-email': () => {
      patient.pendingEmail = null;
      return { status: 200, body: { message: 'The e-mail change was withdrawn.' } };
    },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  signupStatus = 201;
  patchReply = patched;
  meReply = null;
  localStorage.clear();
  useSession.getState().logout();
});

function renderRoute(path: string, element: React.ReactNode) {
  const router = createMemoryRouter(
    [
      { path, element },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
// Next and Finish check the step with the schema, which settles after the click: wait for it.
const click = (name: string) =>
  act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });

test('signup: three steps, defaults of SPEC §5, one submission on Finish, then the dashboard', async () => {
  const router = renderRoute('/patient/signup', <Signup />);
  type('Name', 'Asha Rao');
  type('Email', 'asha@example.com');
  type('Password', 'a long passphrase');
  await click('Next');
  expect(screen.getByLabelText('Gender')).toHaveValue('Prefer not to say');
  expect(screen.getByLabelText('Marital status')).toHaveValue('Unmarried');
  expect(screen.getByLabelText('Date of birth')).toHaveAttribute('type', 'date');
  type('Occupation', 'Teacher');
  await click('Next');
  expect(fake.requests).toHaveLength(0);
  expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
  type('City', 'Pune');
  await click('Finish');
  await waitFor(() => expect(router.state.location.pathname).toBe('/patient/dashboard'));
  expect(fake.requests).toHaveLength(1);
  expect(fake.requests[0].body).toEqual({
    name: 'Asha Rao',
    email: 'asha@example.com',
    password: 'a long passphrase',
    gender: 'Prefer not to say',
    maritalStatus: 'Unmarried',
    occupation: 'Teacher',
    address: { street: '', city: 'Pune', state: '', pinCode: '' },
  });
  expect(useSession.getState()).toMatchObject({ token: 'new-token', role: 'patient' });
});

test('signup failure shows "Could not register. Try again?" and stays', async () => {
  signupStatus = 409;
  const router = renderRoute('/patient/signup', <Signup />);
  // Next checks the account step with the api's schema: a valid account, refused by the server.
  type('Name', 'Asha Rao');
  type('Email', 'asha@example.com');
  type('Password', 'a long passphrase');
  await click('Next');
  await click('Next');
  await click('Finish');
  expect(await screen.findByRole('alert')).toHaveTextContent('Could not register. Try again?');
  expect(router.state.location.pathname).toBe('/patient/signup');
  expect(useSession.getState().isAuthenticated).toBe(false);
});

test('Back keeps what was typed', async () => {
  renderRoute('/patient/signup', <Signup />);
  type('Name', 'Asha');
  // the rest of a valid account step, so that Next moves on
  type('Email', 'asha@example.com');
  type('Password', 'a long passphrase');
  await click('Next');
  await click('Back');
  expect(screen.getByLabelText('Name')).toHaveValue('Asha');
});

test('dashboard: the profile summary and every card of SPEC §2 with its links', async () => {
  useSession.getState().login('t', 'patient');
  renderRoute('/patient/dashboard', <Dashboard />);
  expect(await screen.findByText('Asha Rao')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/patient/edit');
  const links = screen.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);
  expect(links).toEqual(
    expect.arrayContaining([
      ['View', '/patient/dashboard/medical-files'],
      ['Upload', '/patient/dashboard/medical-files/upload'],
      ['View', '/prescription'],
      ['View history', '/patient/all-medical-records'],
      ['Connect', '/patient/assign-doctors'],
      ['Incoming', '/patient/view-incoming-requests'],
      ['Outgoing', '/patient/view-outgoing-requests'],
      ['Set up', '/patient/enable2fa'],
    ]),
  );
  expect(screen.getByLabelText('Assigned Doctors')).toHaveTextContent('Dr. Lee');
  expect(screen.getByLabelText('Assigned Doctors')).toHaveTextContent('Registration GMC 1234567, verified');
  for (const title of ['Files', 'Prescription', 'Medical Records', 'Connect to Doctors', 'Two-Factor Authentication']) {
    expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
  }
});

test('dashboard: a profile that cannot be read is said in the profile and doctors cards, never left as a wait; Try again reads it', async () => {
  meReply = { status: 403, body: { error: 'Forbidden' } };
  useSession.getState().login('t', 'patient');
  renderRoute('/patient/dashboard', <Dashboard />);
  const profile = screen.getByRole('region', { name: 'Profile summary' });
  const doctors = screen.getByRole('region', { name: 'Assigned Doctors' });
  expect(await within(profile).findByRole('alert')).toHaveTextContent('Could not load your profile.');
  expect(within(doctors).getByRole('alert')).toHaveTextContent('Could not load your doctors.');
  for (const card of [profile, doctors]) expect(card).toHaveAttribute('aria-busy', 'false');
  expect(screen.queryByText('No assigned doctors yet')).toBeNull();
  meReply = null;
  fireEvent.click(within(doctors).getByRole('button', { name: 'Try again' }));
  expect(await screen.findByText('Asha Rao')).toBeInTheDocument();
  expect(screen.getByLabelText('Assigned Doctors')).toHaveTextContent('Dr. Lee');
  expect(screen.queryByRole('alert')).toBeNull();
});

test('edit: no date of birth, only filled-in fields sent, empty nested values stripped', async () => {
  useSession.getState().login('t', 'patient');
  const router = renderRoute('/patient/edit', <EditProfile />);
  await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Asha Rao'));
  expect(screen.queryByLabelText(/date of birth/i)).not.toBeInTheDocument();
  type('Name', 'Asha R.');
  await click('Next');
  type('Occupation', '');
  await click('Next');
  type('Street', '');
  type('State', '');
  await click('Finish');
  await waitFor(() => expect(router.state.location.pathname).toBe('/patient/dashboard'));
  const patch = fake.requests.find((r) => r.method === 'PATCH')!;
  expect(patch.body).toEqual({
    name: 'Asha R.',
    email: 'asha@example.com',
    gender: 'Female',
    maritalStatus: 'Married',
    address: { city: 'Pune', pinCode: '411001' },
  });
});

test('edit: an e-mail the server refuses shows beside Email on the first step, without the generic text', async () => {
  patchReply = { status: 409, body: { error: 'An account with this e-mail already exists' } };
  useSession.getState().login('t', 'patient');
  const router = renderRoute('/patient/edit', <EditProfile />);
  await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Asha Rao'));
  type('Email', 'taken@example.com');
  await click('Next');
  await click('Next');
  await click('Finish');
  await waitFor(() =>
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('An account with this e-mail already exists'),
  );
  expect(screen.getByRole('heading', { name: 'Account' })).toBeInTheDocument();
  expect(screen.queryByText('Could not update. Try again?')).not.toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/patient/edit');
});

test('edit: a changed e-mail asks for the current password; a wrong one shows beside it, on the first step', async () => {
  patchReply = { status: 403, body: { error: CURRENT_PASSWORD_WRONG } };
  useSession.getState().login('t', 'patient');
  const router = renderRoute('/patient/edit', <EditProfile />);
  await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Asha Rao'));
  // Unchanged e-mail, no new password: no current password asked.
  expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
  type('Email', 'asha.new@example.com');
  type('Current password', 'not my password');
  await click('Next');
  await click('Next');
  await click('Finish');
  await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(CURRENT_PASSWORD_WRONG));
  expect(screen.getByRole('heading', { name: 'Account' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/patient/edit');
  expect(fake.requests.find((r) => r.method === 'PATCH')!.body).toMatchObject({
    email: 'asha.new@example.com',
    currentPassword: 'not my password',
  });
});

test('edit and dashboard: a new e-mail waiting for its link is shown, and can be withdrawn', async () => {
  patient.pendingEmail = 'asha.new@example.com';
  try {
    useSession.getState().login('t', 'patient');
    renderRoute('/patient/edit', <EditProfile />);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Waiting for confirmation of asha.new@example.com — check that inbox.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(screen.queryByText(/Waiting for confirmation/)).not.toBeInTheDocument());
    expect(fake.requests.filter((r) => r.method === 'DELETE' && r.path === '/patient/me/pending-email')).toHaveLength(1);
  } finally {
    patient.pendingEmail = null;
  }
});

test('edit: an error about no field says "Could not update. Try again?" on the last step', async () => {
  patchReply = { status: 500, body: { error: 'Internal Server Error' } };
  useSession.getState().login('t', 'patient');
  renderRoute('/patient/edit', <EditProfile />);
  await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Asha Rao'));
  await click('Next');
  await click('Next');
  await click('Finish');
  expect(await screen.findByRole('alert')).toHaveTextContent('Could not update. Try again?');
  expect(screen.getByRole('heading', { name: 'Address' })).toBeInTheDocument();
});
