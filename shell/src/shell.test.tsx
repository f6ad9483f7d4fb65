import { act, fireEvent, screen, within } from '@testing-library/react';
import { useSession } from '@careloop/shared-auth';
import { ownerOf } from './routes';
import { forgetRouteLists } from './RemoteView';
import { renderShellAt } from './renderShellAt';
import { VIEW_DEADLINE_MS } from './federationPlugin';

// The federation runtime is the network edge: a double that "downloads" a remote's route list or fails.
// Each view renders "view <remote>/<name>".
const down = new Set<string>();
/** views whose chunk fails ("remote/View"), and views whose chunk never answers */
const failingViews = new Set<string>();
const hangingViews = new Set<string>();
/** how often each view's chunk was asked for */
const viewRequests = new Map<string, number>();
/** remotes built against a newer shared-auth than the page has loaded */
const tooNew = new Set<string>();
const LISTS: Record<string, [path: string, view: string, access?: 'patient' | 'doctor'][]> = {
  remote_public: [
    ['/', 'Landing'],
    ['/about', 'About'],
    ['/team', 'Team'],
    ['/patient/forgot-password', 'ForgotPassword'],
  ],
  remote_patient: [
    ['/patient/edit', 'EditProfile', 'patient'],
    ['/patient/dashboard', 'Dashboard', 'patient'],
    ['/dashboard', 'Dashboard', 'patient'],
    ['/prescription', 'Prescriptions', 'patient'],
  ],
  remote_doctor: [
    ['/doctor/signup', 'Signup'],
    ['/doctor/edit', 'EditProfile', 'doctor'],
    ['/doctor/dashboard', 'Dashboard', 'doctor'],
    ['/medical-record/create/:id', 'CreateRecord', 'doctor'],
    ['/dashboard', 'Dashboard', 'doctor'],
  ],
};
jest.mock('@module-federation/enhanced/runtime', () => ({
  registerRemotes: jest.fn(),
  loadRemote: jest.fn(async (id: string) => {
    const remote = id.split('/')[0];
    if (down.has(remote)) throw new Error(`${remote} unreachable`);
    if (tooNew.has(remote))
      throw new Error(
        `[ Federation Runtime ]: Version 1.1.0 from shell of shared singleton module @careloop/shared-auth does not satisfy the requirement of ${remote} which needs ^1.2.0)`,
      );
    return {
      default: LISTS[remote].map(([path, view, access]) => ({
        path,
        access,
        view: async () => {
          const key = `${remote}/${view}`;
          viewRequests.set(key, (viewRequests.get(key) ?? 0) + 1);
          if (hangingViews.has(key)) return new Promise<never>(() => {});
          if (failingViews.has(key)) throw new Error(`ChunkLoadError: Loading chunk ${view} failed.`);
          return { default: () => <p>{`view ${key}`}</p> };
        },
      })),
    };
  }),
}));

beforeEach(() => {
  forgetRouteLists();
  down.clear();
  tooNew.clear();
  failingViews.clear();
  hangingViews.clear();
  viewRequests.clear();
  localStorage.clear();
  useSession.getState().logout();
  useSession.getState().start();
});

test('/ shows the landing page logged out and the stored role dashboard logged in', async () => {
  renderShellAt('/');
  expect(await screen.findByText('view remote_public/Landing')).toBeInTheDocument();
  act(() => useSession.getState().login('t', 'doctor'));
  expect(await screen.findByText('view remote_doctor/Dashboard')).toBeInTheDocument();
});

test('a URL belongs to the owner of its longest prefix; exact exceptions go to remote-public', () => {
  expect(ownerOf('/patient/edit')).toBe('patient');
  expect(ownerOf('/patient')).toBe('patient');
  expect(ownerOf('/patients')).toBe('public');
  expect(ownerOf('/patient/forgot-password')).toBe('public');
  expect(ownerOf('/doctor/reset-password/1/abc')).toBe('public');
  expect(ownerOf('/medical-record/create/7')).toBe('doctor');
  expect(ownerOf('/about')).toBe('public');
});

test("the owner's own list serves the URL, params and guards included", async () => {
  useSession.getState().login('t', 'patient');
  renderShellAt('/patient/edit');
  expect(await screen.findByText('view remote_patient/EditProfile')).toBeInTheDocument();
});

test('a route an owner adds to its list is served with no change to the shell', async () => {
  LISTS.remote_patient.push(['/patient/new-page', 'NewPage']);
  try {
    renderShellAt('/patient/new-page');
    expect(await screen.findByText('view remote_patient/NewPage')).toBeInTheDocument();
  } finally {
    LISTS.remote_patient.pop();
  }
});

test('a URL under a prefix whose owner has no such route shows the not-found screen', async () => {
  renderShellAt('/doctor/no-such-page');
  expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
});

test("/prescription is served by the signed-in role's own list", async () => {
  useSession.getState().login('t', 'patient');
  renderShellAt('/prescription');
  expect(await screen.findByText('view remote_patient/Prescriptions')).toBeInTheDocument();
});

test('a protected route sends a logged-out visitor to /', async () => {
  const router = renderShellAt('/doctor/dashboard');
  expect(await screen.findByText('view remote_public/Landing')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/');
});

test("a patient cannot open the doctor's pages", async () => {
  useSession.getState().login('t', 'patient');
  const router = renderShellAt('/doctor/edit');
  expect(await screen.findByText('view remote_patient/Dashboard')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/');
});

test('an unknown URL shows the not-found screen', async () => {
  renderShellAt('/no/such/page');
  expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
});

test('a remote that fails is contained: the nav stays, Retry loads it once it is back', async () => {
  down.add('remote_doctor');
  renderShellAt('/doctor/signup');
  expect(await screen.findByTestId('remote-error')).toHaveTextContent('The doctor area could not be loaded.');
  expect(screen.getByRole('link', { name: 'About' })).toBeInTheDocument();
  down.clear();
  fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByText('view remote_doctor/Signup')).toBeInTheDocument();
});

test('a remote built against a newer shared-auth shows a contained, explained panel, not a TypeError', async () => {
  tooNew.add('remote_patient');
  renderShellAt('/patient/signup');
  expect(await screen.findByTestId('remote-incompatible')).toHaveTextContent(
    'This part of CareLoop needs a newer version of @careloop/shared-auth (^1.2.0, this page has 1.1.0); reload or contact support.',
  );
  expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  expect(screen.queryByTestId('remote-error')).not.toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'About' })).toBeInTheDocument();
});

test('a view whose chunk keeps failing shows the panel after 3 requests; Retry loads only that view', async () => {
  // Fake timers: the retries' delays pass at once, and "nothing more" is a minute of them, not a wait.
  jest.useFakeTimers();
  try {
    useSession.getState().login('t', 'patient');
    const router = renderShellAt('/patient/dashboard');
    expect(await screen.findByText('view remote_patient/Dashboard')).toBeInTheDocument();
    failingViews.add('remote_patient/EditProfile');
    // Personal Information: the dashboard gives way to the panel, the URL is the edit page's.
    await act(() => router.navigate('/patient/edit'));
    expect(await screen.findByTestId('remote-error', {}, { timeout: 5000 })).toHaveTextContent(
      'The patient area could not be loaded.',
    );
    expect(screen.queryByText('view remote_patient/Dashboard')).not.toBeInTheDocument();
    // No retry storm: the first try and its 2 retries, then nothing more.
    await act(() => jest.advanceTimersByTimeAsync(60_000));
    expect(viewRequests.get('remote_patient/EditProfile')).toBe(3);
    expect(screen.getByRole('link', { name: 'About' })).toBeInTheDocument();

    failingViews.clear();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('view remote_patient/EditProfile')).toBeInTheDocument();
    expect(viewRequests.get('remote_patient/EditProfile')).toBe(4);
    // Only the view was loaded again, not the remote's route list or the other views.
    expect(viewRequests.get('remote_patient/Dashboard')).toBe(1);
  } finally {
    jest.useRealTimers();
  }
});

test('leaving a failed view and coming back is a new navigation: it is tried again', async () => {
  useSession.getState().login('t', 'patient');
  failingViews.add('remote_patient/EditProfile');
  const router = renderShellAt('/patient/edit');
  expect(await screen.findByTestId('remote-error', {}, { timeout: 5000 })).toBeInTheDocument();
  await act(() => router.navigate('/patient/dashboard'));
  expect(await screen.findByText('view remote_patient/Dashboard')).toBeInTheDocument();
  failingViews.clear();
  await act(() => router.navigate('/patient/edit'));
  expect(await screen.findByText('view remote_patient/EditProfile')).toBeInTheDocument();
  expect(viewRequests.get('remote_patient/EditProfile')).toBe(4);
});

test('a view whose chunk never answers shows the panel at the deadline, and Retry asks again', async () => {
  jest.useFakeTimers();
  try {
    useSession.getState().login('t', 'patient');
    hangingViews.add('remote_patient/EditProfile');
    renderShellAt('/patient/edit');
    // React renders at the end of each act: step until the view's chunk is asked for.
    for (let i = 0; i < 10 && !viewRequests.has('remote_patient/EditProfile'); i++)
      await act(() => jest.advanceTimersByTimeAsync(10));
    expect(viewRequests.get('remote_patient/EditProfile')).toBe(1);
    await act(() => jest.advanceTimersByTimeAsync(VIEW_DEADLINE_MS - 100));
    expect(screen.queryByTestId('remote-error')).not.toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(100));
    await act(() => jest.advanceTimersByTimeAsync(10));
    expect(screen.getByTestId('remote-error')).toHaveTextContent('The patient area could not be loaded.');
    // A pending request is not asked for again while it may still answer.
    expect(viewRequests.get('remote_patient/EditProfile')).toBe(1);
    await act(() => jest.advanceTimersByTimeAsync(60_000));
    expect(viewRequests.get('remote_patient/EditProfile')).toBe(1);

    hangingViews.clear();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await act(() => jest.advanceTimersByTimeAsync(100));
    await act(() => jest.advanceTimersByTimeAsync(100));
    expect(screen.getByText('view remote_patient/EditProfile')).toBeInTheDocument();
  } finally {
    jest.useRealTimers();
  }
});

test('Sign In and Create an account dropdowns open, list both roles, and close on a press outside', async () => {
  renderShellAt('/about');
  fireEvent.click(screen.getByRole('button', { name: /Sign In/ }));
  const menu = screen.getByRole('list', { name: 'Sign In' });
  expect(within(menu).getByRole('link', { name: 'As Patient' })).toHaveAttribute('href', '/login/patient');
  expect(within(menu).getByRole('link', { name: 'As Doctor' })).toHaveAttribute('href', '/login/doctor');
  fireEvent.mouseDown(document.body);
  expect(screen.queryByRole('list', { name: 'Sign In' })).not.toBeInTheDocument();

  fireEvent.click(screen.getByRole('button', { name: /Create an account/ }));
  const create = screen.getByRole('list', { name: 'Create an account' });
  expect(within(create).getByRole('link', { name: 'As Patient' })).toHaveAttribute('href', '/patient/signup');
  expect(within(create).getByRole('link', { name: 'As Doctor' })).toHaveAttribute('href', '/doctor/signup');
});

test('the active link is marked; Home only in the mobile menu; My Account and Log Out when logged in', async () => {
  useSession.getState().login('t', 'patient');
  renderShellAt('/team');
  const nav = screen.getByRole('navigation', { name: 'Main' });
  expect(within(nav).getByRole('link', { name: 'Team' })).toHaveClass('active');
  expect(within(nav).queryByRole('link', { name: 'Home' })).not.toBeInTheDocument();
  expect(within(nav).getByRole('button', { name: 'Log Out' })).toBeInTheDocument();
  fireEvent.click(screen.getByLabelText('Menu'));
  const mobile = screen.getByTestId('mobile-menu');
  expect(within(mobile).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  expect(within(mobile).getByRole('link', { name: 'My Account' })).toBeInTheDocument();
});

test('Log Out clears the session and goes to /', async () => {
  useSession.getState().login('t', 'patient');
  const router = renderShellAt('/patient/edit');
  fireEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Log Out' }));
  expect(router.state.location.pathname).toBe('/');
  expect(localStorage.getItem('token')).toBeNull();
  expect(await screen.findByText('view remote_public/Landing')).toBeInTheDocument();
});
