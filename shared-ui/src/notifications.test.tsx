import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, useNavigate } from '@careloop/shared-router';
import type { Notification, NotificationPreference } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useMfaGate, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { NotificationBadge, NotificationSettingsView, NotificationsView } from './Notifications';

const id = (n: number) => `0b7f3c1e-${String(n).padStart(4, '0')}-4f0e-9a39-2f1f5e1c0a44`;
const ENDED: Notification = {
  _id: id(1),
  kind: 'access-ended',
  person: { name: 'Maria Lopez', email: 'maria@example.com', DOB: '1985-03-12' },
  entityId: null,
  createdAt: '2026-11-27T19:30:00.000Z',
  read: false,
};
const ACCEPTED: Notification = {
  _id: id(2),
  kind: 'request-accepted',
  person: { name: 'Maria Lopez', email: 'maria.l@example.com', DOB: '1990-07-01' },
  entityId: null,
  createdAt: '2026-11-27T18:00:00.000Z',
  read: false,
};
const RECORD: Notification = {
  _id: id(3),
  kind: 'new-record',
  person: { name: 'Mira Holt', email: 'mira@example.com', DOB: null },
  entityId: id(9),
  createdAt: '2026-11-27T17:00:00.000Z',
  read: false,
};

let doctorInbox: Notification[] = [];
let patientInbox: Notification[] = [];
let preferences: NotificationPreference[] = [];
const page = (items: Notification[]) => ({
  items,
  page: 1,
  limit: 20,
  total: items.length,
  unread: items.filter((n) => !n.read).length,
});
const unread = (items: Notification[]) => ({ status: 200, body: { unread: items.filter((n) => !n.read).length } });
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'GET /clinic': { status: 200, body: { timeZone: 'Europe/London' } },
    'GET /doctor/notifications': () => ({ status: 200, body: page(doctorInbox) }),
    'GET /doctor/notifications/unread': () => unread(doctorInbox),
    [`POST /doctor/notifications/${ENDED._id}/read`]: () => {
      doctorInbox = doctorInbox.map((n) => (n._id === ENDED._id ? { ...n, read: true } : n));
      return unread(doctorInbox);
    },
    'POST /doctor/notifications/read-all': () => {
      doctorInbox = doctorInbox.map((n) => ({ ...n, read: true }));
      return unread(doctorInbox);
    },
    'GET /patient/notifications': () => ({ status: 200, body: page(patientInbox) }),
    'GET /patient/notifications/unread': () => unread(patientInbox),
    [`POST /patient/notifications/${RECORD._id}/read`]: () => {
      patientInbox = patientInbox.map((n) => ({ ...n, read: true }));
      return unread(patientInbox);
    },
    'GET /patient/notification-preferences': () => ({ status: 200, body: { preferences } }),
    'PUT /patient/notification-preferences': (req) => {
      const given = (req.body as { preferences: NotificationPreference[] }).preferences;
      preferences = preferences.map((p) => given.find((g) => g.kind === p.kind) ?? p);
      return { status: 200, body: { preferences } };
    },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  useMfaGate.getState().setRequired(false);
});

const renderIn = (node: React.ReactNode) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );

test('the badge names the unread count and links to the inbox; with nothing unread it says only "Notifications"', async () => {
  useSession.getState().login('t', 'doctor');
  doctorInbox = [ENDED, { ...ACCEPTED, read: true }];
  const { unmount } = renderIn(<NotificationBadge role="doctor" />);
  const link = await screen.findByRole('link', { name: 'Notifications, 1 unread' });
  expect(link).toHaveAttribute('href', '/doctor/notifications');
  unmount();

  doctorInbox = [{ ...ENDED, read: true }];
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <NotificationBadge role="doctor" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  // once its count (0) is in, the name has no number
  await waitFor(() => expect(client.getQueryData(['notifications', 'doctor', 'unread'])).toEqual({ unread: 0 }));
  expect(screen.getByRole('link', { name: 'Notifications' })).toHaveAttribute('href', '/doctor/notifications');
});

test('the badge reads its count again when the person moves to another page', async () => {
  useSession.getState().login('t', 'doctor');
  doctorInbox = [ENDED];
  function GoElsewhere() {
    const navigate = useNavigate();
    return (
      <button type="button" onClick={() => navigate('/doctor/dashboard')}>
        elsewhere
      </button>
    );
  }
  renderIn(
    <>
      <NotificationBadge role="doctor" />
      <GoElsewhere />
    </>,
  );
  await screen.findByRole('link', { name: 'Notifications, 1 unread' });
  doctorInbox = [ENDED, ACCEPTED]; // something happened meanwhile
  fireEvent.click(screen.getByRole('button', { name: 'elsewhere' }));
  expect(await screen.findByRole('link', { name: 'Notifications, 2 unread' })).toBeInTheDocument();
});

test('no badge, and its count is never asked for, while the account must first turn two-factor on', () => {
  useSession.getState().login('t', 'doctor');
  useMfaGate.getState().setRequired(true);
  const client = createQueryClient();
  const { container } = render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <NotificationBadge role="doctor" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  expect(container).toBeEmptyDOMElement();
  // the query is there, disabled: it never fetches
  expect(client.getQueryCache().find({ queryKey: ['notifications', 'doctor', 'unread'] })?.state.fetchStatus).toBe('idle');
});

test("a doctor's inbox names the patient as they knew them, says what an ended access means, marks one then all read", async () => {
  useSession.getState().login('t', 'doctor');
  doctorInbox = [ENDED, ACCEPTED];
  renderIn(<NotificationsView role="doctor" />);
  const list = await screen.findByRole('list', { name: 'Notifications' });
  const ended = within(list).getByRole('listitem', { name: 'Unread: Maria Lopez ended your access to their records' });
  // two patients of one name are told apart: date of birth and e-mail
  expect(ended).toHaveTextContent(/Born 12 Mar 1985 \(\d+\) · maria@example\.com/);
  expect(ended).toHaveTextContent("You can no longer see this patient's records.");
  expect(ended).toHaveTextContent('27 Nov 2026, 19:30');
  expect(within(list).getByRole('listitem', { name: /accepted your connection request/ })).toHaveTextContent(
    'maria.l@example.com',
  );
  expect(screen.getByRole('status')).toHaveTextContent('2 unread');

  fireEvent.click(screen.getByRole('button', { name: 'Mark as read: Maria Lopez ended your access to their records' }));
  expect(
    await within(list).findByRole('listitem', { name: 'Maria Lopez ended your access to their records' }),
  ).toBeInTheDocument();
  expect(await screen.findByText('1 unread')).toBeInTheDocument();

  fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
  expect(await screen.findByText('You have read everything.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  expect(fake.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
    `/doctor/notifications/${ENDED._id}/read`,
    '/doctor/notifications/read-all',
  ]);
});

test("a patient's notification links to what it is about, and opening it marks it read", async () => {
  useSession.getState().login('t', 'patient');
  patientInbox = [RECORD];
  renderIn(<NotificationsView role="patient" />);
  const link = await screen.findByRole('link', { name: 'You have a new medical record from Dr Mira Holt' });
  expect(link).toHaveAttribute('href', `/all-medical-records/${RECORD.entityId}`);
  // a patient's inbox never shows the doctor's e-mail as an identity line
  expect(screen.queryByText('mira@example.com')).not.toBeInTheDocument();
  fireEvent.click(link);
  await screen.findByText('You have read everything.');
  expect(fake.requests.some((r) => r.method === 'POST' && r.path === `/patient/notifications/${RECORD._id}/read`)).toBe(true);
});

test('an empty inbox says so kindly', async () => {
  useSession.getState().login('t', 'patient');
  patientInbox = [];
  renderIn(<NotificationsView role="patient" />);
  expect(await screen.findByText('Nothing yet. We will let you know here when something happens.')).toBeInTheDocument();
});

test('settings: every kind of the role with its e-mail choice; Save sends them all and says "Saved" until the next change', async () => {
  useSession.getState().login('t', 'patient');
  preferences = ['request-received', 'request-accepted', 'request-declined', 'new-record', 'new-prescription'].map((kind) => ({
    kind: kind as NotificationPreference['kind'],
    email: true,
  }));
  renderIn(<NotificationSettingsView role="patient" />);
  const group = await screen.findByRole('group', { name: 'E-mail me when' });
  expect(within(group).getAllByRole('checkbox')).toHaveLength(5);
  const records = within(group).getByRole('checkbox', { name: 'A doctor adds a medical record for you' });
  expect(records).toBeChecked();
  fireEvent.click(records);
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Saved. Your e-mail choices are up to date.')).toBeInTheDocument();
  const put = fake.requests.find((r) => r.method === 'PUT');
  expect(put?.body).toEqual({
    preferences: [
      { kind: 'request-received', email: true },
      { kind: 'request-accepted', email: true },
      { kind: 'request-declined', email: true },
      { kind: 'new-record', email: false },
      { kind: 'new-prescription', email: true },
    ],
  });
  expect(records).not.toBeChecked();
  // the next change clears the message
  fireEvent.click(within(group).getByRole('checkbox', { name: 'A doctor adds a prescription for you' }));
  expect(screen.queryByText('Saved. Your e-mail choices are up to date.')).not.toBeInTheDocument();
});
