import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { preloadPasswordJudge } from '@careloop/shared-ui';
import { startFakeApi } from '../../../test-support/fake-api';
import Dashboard from './Dashboard';
import EditProfile from './EditProfile';
import Signup from './Signup';

const doctor = {
  _id: '0b3c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a22',
  name: 'Dr. Lee',
  email: 'lee@example.com',
  yearsOfExperience: 12,
  specialization: ['Cardiology'],
  qualifications: ['MBBS', 'MD'],
  gender: 'Male',
  assignedPatients: [],
  twoFactorEnabled: false,
  pendingEmail: null,
  emailVerified: true,
  registration: { register: 'GMC', number: '1234567', verified: true },
  mayRequestConnections: true,
};
const NO_DRAFTS = { status: 200, body: { drafts: [] } };
let draftsReply: { status: number; body: unknown } = NO_DRAFTS;
let fake: Awaited<ReturnType<typeof startFakeApi>>;

// zxcvbn's dictionaries load once, up front, not in the middle of a timed test.
beforeAll(() => preloadPasswordJudge(), 60_000);
beforeAll(async () => {
  fake = await startFakeApi({
    'POST /doctor/signup': { status: 201, body: { token: 'doc-token', role: 'doctor' } },
    'GET /doctor/me': { status: 200, body: { doctor, profileUrl: null } },
    'GET /doctor/worklist': { status: 200, body: { items: [] } },
    'GET /doctor/drafts': () => draftsReply,
    'PATCH /doctor/me': { status: 200, body: { doctor, profileUrl: null, token: 'rotated' } },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  draftsReply = NO_DRAFTS;
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

test('signup: experience defaults to 1 (min 1), lists split from comma-separated text', async () => {
  const router = renderRoute('/doctor/signup', <Signup />);
  type('Name', 'Dr. Lee');
  type('Email', 'lee@example.com');
  type('Password', 'a long passphrase');
  await click('Next');
  fireEvent.change(screen.getByLabelText('Professional register'), { target: { value: 'GMC' } });
  type('Registration number', ' 1234567 ');
  const years = screen.getByLabelText('Years of experience');
  expect(years).toHaveValue(1);
  expect(years).toHaveAttribute('min', '1');
  type('Years of experience', '12');
  type('Specialization (comma-separated)', ' Cardiology,  Internal medicine ,');
  type('Qualifications (comma-separated)', 'MBBS, MD');
  await click('Next');
  expect(screen.getByLabelText('Gender')).toHaveValue('Prefer not to say');
  await click('Finish');
  await waitFor(() => expect(router.state.location.pathname).toBe('/doctor/dashboard'));
  expect(fake.requests[0].body).toEqual({
    name: 'Dr. Lee',
    email: 'lee@example.com',
    password: 'a long passphrase',
    gender: 'Prefer not to say',
    yearsOfExperience: 12,
    specialization: ['Cardiology', 'Internal medicine'],
    qualifications: ['MBBS', 'MD'],
    registration: { register: 'GMC', number: '1234567' },
  });
  expect(useSession.getState()).toMatchObject({ token: 'doc-token', role: 'doctor' });
});

test('dashboard: profile summary and the doctor cards, Send Reminder included', async () => {
  useSession.getState().login('t', 'doctor');
  renderRoute('/doctor/dashboard', <Dashboard />);
  expect(await screen.findByText('Cardiology')).toBeInTheDocument();
  const links = screen.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);
  expect(links).toEqual(
    expect.arrayContaining([
      ['Edit', '/doctor/edit'],
      ['View', '/doctor/dashboard/medical-files'],
      ['Create', '/create-prescription'],
      ['View', '/doctor/all-medical-records'],
      ['Create new', '/medical-record/create'],
      ['Connect', '/doctor/assign-patients'],
      ['Incoming', '/doctor/view-incoming-requests'],
      ['Outgoing', '/doctor/view-outgoing-requests'],
      ['Set up', '/doctor/enable2fa'],
      ['Schedule', '/doctor/dashboard/reminder'],
    ]),
  );
  expect(screen.getByRole('heading', { name: 'Send Reminder' })).toBeInTheDocument();
  // every card is a region named by its title (names with spaces included), and 2FA says its state
  for (const name of ['Files', 'Medical Records', 'Connect to Patients', 'Access history', 'Send Reminder'])
    expect(screen.getByRole('region', { name })).toBeInTheDocument();
  expect(within(screen.getByRole('region', { name: 'Two-Factor Authentication' })).getByText('Off')).toBeInTheDocument();
  // The worklist answers after the profile: wait for it rather than race it.
  expect(await within(screen.getByLabelText('Assigned patients')).findByText('No assigned patients found')).toBeInTheDocument();
});

test('edit: sends the filled-in fields as lists; a returned token replaces the stored one', async () => {
  useSession.getState().login('t', 'doctor');
  const router = renderRoute('/doctor/edit', <EditProfile />);
  await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Dr. Lee'));
  type('New password', 'another passphrase');
  // A new password asks for the current one: Next stays until it is given.
  await click('Next');
  expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(/current password/);
  expect(screen.getByRole('heading', { name: 'Account' })).toBeInTheDocument();
  type('Current password', 'my current passphrase');
  await click('Next');
  type('Specialization (comma-separated)', 'Cardiology, Sports medicine');
  type('Qualifications (comma-separated)', '');
  await click('Next');
  await click('Finish');
  await waitFor(() => expect(router.state.location.pathname).toBe('/doctor/dashboard'));
  const patch = fake.requests.find((r) => r.method === 'PATCH')!;
  expect(patch.body).toEqual({
    name: 'Dr. Lee',
    email: 'lee@example.com',
    password: 'another passphrase',
    currentPassword: 'my current passphrase',
    gender: 'Male',
    yearsOfExperience: 12,
    specialization: ['Cardiology', 'Sports medicine'],
  });
  expect(useSession.getState().token).toBe('rotated');
});

test('signup: the registration number is checked for its register before Next', async () => {
  renderRoute('/doctor/signup', <Signup />);
  type('Name', 'Dr. Lee');
  type('Email', 'lee@example.com');
  type('Password', 'a long passphrase');
  await click('Next');
  await click('Next');
  expect(screen.getByLabelText('Professional register')).toHaveAccessibleDescription(
    'Choose the register you are registered with',
  );
  const number = (register: string, value: string) => {
    fireEvent.change(screen.getByLabelText('Professional register'), { target: { value: register } });
    type('Registration number', value);
    return click('Next');
  };
  await number('GMC', '123456');
  expect(screen.getByLabelText('Registration number')).toHaveAccessibleDescription(/^A GMC number is 7 digits/);
  await number('NPI', '1234567890');
  expect(screen.getByLabelText('Registration number')).toHaveAccessibleDescription(/^This NPI's check digit does not match/);
  await number('AHPRA', 'MED123');
  expect(screen.getByLabelText('Registration number')).toHaveAccessibleDescription(
    /^An AHPRA number is MED followed by 10 digits/,
  );
  await number('IMC', '1234567');
  expect(screen.getByLabelText('Registration number')).toHaveAccessibleDescription(/^An IMC number is 1 to 6 digits/);
  await number('Other', 'x');
  expect(screen.getByLabelText('Registration number')).toHaveAccessibleDescription(/^A registration number is 3 to 40 letters/);
  await number('NPI', '1234567893');
  expect(screen.getByLabelText('Gender')).toBeInTheDocument();
});

test('dashboard: drafts that cannot be read are said, never taken for none; Try again reads them', async () => {
  draftsReply = { status: 403, body: { error: 'Forbidden' } };
  useSession.getState().login('t', 'doctor');
  renderRoute('/doctor/dashboard', <Dashboard />);
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Could not check for records and prescriptions you left unsent.');
  draftsReply = NO_DRAFTS;
  fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  expect(fake.requests.filter((r) => r.path === '/doctor/drafts')).toHaveLength(2);
});
