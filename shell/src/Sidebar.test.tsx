import { act, fireEvent, screen, within } from '@testing-library/react';
import { useSession } from '@careloop/shared-auth';
import type { RemoteNavEntry, RemoteRoute } from '@careloop/shared-ui';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { sidebarEntries } from './Sidebar';
import { forgetRouteLists } from './RemoteView';
import { renderShellAt } from './renderShellAt';

// The federation runtime is the network edge: a double that "downloads" a remote's route list or fails.
const down = new Set<string>();
type Declared = [path: string, access?: 'patient' | 'doctor', nav?: RemoteNavEntry];
const LISTS: Record<string, Declared[]> = {
  remote_public: [['/about'], ['/features', 'patient', { label: 'Feature tour', icon: 'star', order: 5 }]],
  // Declared out of order: the sidebar sorts by `order`.
  remote_patient: [
    ['/patient/dashboard', 'patient'],
    ['/patient/assign-doctors', 'patient', { label: 'Assigned Doctors', icon: 'people', order: 50 }],
    ['/patient/edit', 'patient', { label: 'Personal Information', icon: 'person', order: 10 }],
    ['/prescription', 'patient', { label: 'Prescription', icon: 'pill', order: 30 }],
    ['/all-medical-records/:id', 'patient', { label: 'A record', icon: 'records', order: 1 }],
  ],
  remote_doctor: [
    ['/doctor/signup', undefined, { label: 'Not for a role', icon: 'x', order: 1 }],
    ['/doctor/edit', 'doctor', { label: 'Personal Information', icon: 'person', order: 10 }],
    ['/prescription', 'doctor', { label: 'Prescription', icon: 'pill', order: 30 }],
    ['/doctor/dashboard/reminder', 'doctor', { label: 'Send Reminder', icon: 'bell', order: 80 }],
  ],
};
const routeList = (remote: string): RemoteRoute[] =>
  LISTS[remote].map(([path, access, nav]) => ({
    path,
    title: path,
    access,
    nav,
    view: async () => ({ default: () => <p>{`view ${remote}${path}`}</p> }),
  }));
jest.mock('@module-federation/enhanced/runtime', () => ({
  registerRemotes: jest.fn(),
  loadRemote: jest.fn(async (id: string) => {
    const remote = id.split('/')[0];
    if (down.has(remote)) throw new Error(`${remote} unreachable`);
    return { default: routeList(remote) };
  }),
}));
const routeListLoads = (remote: string) => jest.mocked(loadRemote).mock.calls.filter(([id]) => id === `${remote}/routes`).length;

const sidebar = () => screen.findByRole('complementary', { name: 'Account' });
const linkTexts = (aside: HTMLElement) =>
  within(aside)
    .queryAllByRole('link')
    .map((a) => a.textContent);

beforeEach(() => {
  forgetRouteLists();
  down.clear();
  jest.mocked(loadRemote).mockClear();
  localStorage.clear();
  useSession.getState().logout();
  useSession.getState().start();
});

test("a role's entries come from the routes that declare them, for that role only, lowest order first", () => {
  const lists = [routeList('remote_public'), routeList('remote_patient'), routeList('remote_doctor')];
  expect(sidebarEntries(lists, 'patient')).toEqual([
    { text: 'Feature tour', to: '/features', icon: 'star' },
    { text: 'Personal Information', to: '/patient/edit', icon: 'person' },
    { text: 'Prescription', to: '/prescription', icon: 'pill' },
    { text: 'Assigned Doctors', to: '/patient/assign-doctors', icon: 'people' },
  ]);
  // The shared /prescription is each role's own entry, from its own remote; a route with no access is none.
  expect(sidebarEntries(lists, 'doctor').map((e) => e.to)).toEqual([
    '/doctor/edit',
    '/prescription',
    '/doctor/dashboard/reminder',
  ]);
  expect(sidebarEntries([], 'doctor')).toEqual([]);
});

test("the signed-in role's sidebar renders its remote's declared entries as links, none when logged out", async () => {
  renderShellAt('/about');
  expect(await screen.findByText('view remote_public/about')).toBeInTheDocument();
  expect(screen.queryByRole('complementary', { name: 'Account' })).not.toBeInTheDocument();

  act(() => useSession.getState().login('t', 'doctor'));
  const aside = await sidebar();
  expect(await within(aside).findByRole('link', { name: 'Send Reminder' })).toHaveAttribute('href', '/doctor/dashboard/reminder');
  expect(linkTexts(aside)).toEqual(['Personal Information', 'Prescription', 'Send Reminder']);
  expect(within(aside).getByRole('link', { name: 'Prescription' })).toHaveAttribute('data-icon', 'pill');
});

test("the page and the sidebar share one load of the role's route list", async () => {
  useSession.getState().login('t', 'patient');
  renderShellAt('/patient/edit');
  expect(await screen.findByText('view remote_patient/patient/edit')).toBeInTheDocument();
  const aside = await sidebar();
  expect(await within(aside).findByRole('link', { name: 'Personal Information' })).toHaveAttribute('href', '/patient/edit');
  expect(routeListLoads('remote_patient')).toBe(1);
  expect(routeListLoads('remote_doctor')).toBe(0);
});

test('a remote whose route list fails adds no entries; the others still show, and its own come once Retry loads it', async () => {
  useSession.getState().login('t', 'patient');
  down.add('remote_patient');
  const router = renderShellAt('/features');
  expect(await screen.findByText('view remote_public/features')).toBeInTheDocument();
  const aside = await sidebar();
  expect(await within(aside).findByRole('link', { name: 'Feature tour' })).toBeInTheDocument();
  // The sidebar's failed load is contained: no panel in the sidebar, the page and the top nav untouched.
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  expect(routeListLoads('remote_patient')).toBeGreaterThan(0);
  expect(linkTexts(aside)).toEqual(['Feature tour']);
  expect(screen.queryByTestId('remote-error')).not.toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'About' })).toBeInTheDocument();

  // Its own pages show the contained panel; once it is back, Retry fills the sidebar too.
  await act(() => router.navigate('/patient/edit'));
  expect(await screen.findByTestId('remote-error')).toHaveTextContent('The patient area could not be loaded.');
  down.clear();
  fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByText('view remote_patient/patient/edit')).toBeInTheDocument();
  expect(await within(aside).findByRole('link', { name: 'Assigned Doctors' })).toBeInTheDocument();
  expect(linkTexts(aside)).toEqual(['Feature tour', 'Personal Information', 'Prescription', 'Assigned Doctors']);
});
