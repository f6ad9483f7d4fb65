import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { SessionHandoff } from './SessionHandoff';

const CODE = 'one-time-code-from-google';
const ME = {
  _id: '6b2d2f5f-9b5c-4a1f-8b4a-3a2a6f2d1b55',
  name: 'Asha Rao',
  email: 'asha@example.com',
  DOB: '1990-01-02',
  gender: 'Female',
  maritalStatus: 'Married',
  occupation: 'Teacher',
  address: { street: '1 Main St', city: 'Leeds', state: 'WY', pinCode: 'LS1' },
  profileComplete: true,
  twoFactorEnabled: false,
  emailVerified: true,
  pendingEmail: null,
  assignedDoctors: [],
};
let fake: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  fake = await startFakeApi({
    // Like the api: only the code it handed out, once.
    'POST /patient/auth/exchange': (r) =>
      (r.body as { code: string }).code === CODE && !fake.requests.slice(0, -1).some((q) => q.path === '/patient/auth/exchange')
        ? { status: 200, body: { token: 'session-of-the-google-account', role: 'patient' } }
        : { status: 400, body: { error: 'This sign-in link is invalid or has expired' } },
    'GET /patient/me': { status: 200, body: { patient: ME, profileUrl: null } },
    'POST /patient/logout': { status: 204 },
    'POST /doctor/logout': { status: 204 },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  localStorage.clear();
  useSession.getState().logout();
});

function renderAt(initial: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/patient/dashboard',
        element: (
          <SessionHandoff role="patient">
            <p>the page</p>
          </SessionHandoff>
        ),
      },
      { path: '/login/patient', element: <p>login page</p> },
    ],
    { initialEntries: [initial] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
const exchanges = () => fake.requests.filter((r) => r.path === '/patient/auth/exchange');
const logouts = () => fake.requests.filter((r) => r.path.endsWith('/logout'));

describe('nobody signed in', () => {
  test('the code is exchanged for a session; the query value itself is never the token', async () => {
    const router = renderAt(`/patient/dashboard?token=${CODE}&role=patient`);
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(exchanges()).toHaveLength(1);
    expect(exchanges()[0].body).toEqual({ code: CODE });
    expect(exchanges()[0].headers.authorization).toBeUndefined();
    expect(useSession.getState()).toMatchObject({ token: 'session-of-the-google-account', role: 'patient' });
    expect(localStorage.getItem('token')).toBe('session-of-the-google-account');
    expect(router.state.location.search).toBe('');
  });

  test('a value that is no code (a plain session token) signs nobody in and leads to the login page with an error', async () => {
    const router = renderAt('/patient/dashboard?token=somebody-elses-session-token&role=patient');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login/patient'));
    expect(router.state.location.search).toBe('?error=google_failed');
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();
  });

  test('a hand-off for the other role is dropped unused', async () => {
    const router = renderAt(`/patient/dashboard?token=${CODE}&role=doctor`);
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(exchanges()).toHaveLength(0);
    expect(useSession.getState().isAuthenticated).toBe(false);
  });

  test('a page without a hand-off renders at once, calling nothing', async () => {
    renderAt('/patient/dashboard');
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(fake.requests).toHaveLength(0);
  });
});

describe('someone signed in already', () => {
  beforeEach(() => useSession.getState().login('my-own-session', 'patient'));

  test('asks first, naming the signed-in account; nothing is exchanged or changed, and the code leaves the URL', async () => {
    const router = renderAt(`/patient/dashboard?token=${CODE}&role=patient`);
    const dialog = await screen.findByRole('dialog', { name: 'Switch account?' });
    await waitFor(() =>
      expect(dialog).toHaveTextContent(
        'You are signed in as Asha Rao (asha@example.com). Switch to the account from this Google sign-in?',
      ),
    );
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('button', { name: 'Stay signed in' })).toHaveFocus();
    expect(screen.queryByText('the page')).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(exchanges()).toHaveLength(0);
    expect(useSession.getState()).toMatchObject({ token: 'my-own-session', role: 'patient' });
  });

  test('Stay keeps the session and leaves the code unused', async () => {
    renderAt(`/patient/dashboard?token=${CODE}&role=patient`);
    fireEvent.click(await screen.findByRole('button', { name: 'Stay signed in' }));
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(exchanges()).toHaveLength(0);
    expect(logouts()).toHaveLength(0);
    expect(useSession.getState()).toMatchObject({ token: 'my-own-session', role: 'patient' });
  });

  test('Escape is Stay', async () => {
    renderAt(`/patient/dashboard?token=${CODE}&role=patient`);
    fireEvent.keyDown(await screen.findByRole('dialog'), { key: 'Escape' });
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(exchanges()).toHaveLength(0);
    expect(useSession.getState().token).toBe('my-own-session');
  });

  test('Tab stays inside the dialog', async () => {
    renderAt(`/patient/dashboard?token=${CODE}&role=patient`);
    const dialog = await screen.findByRole('dialog');
    const stay = screen.getByRole('button', { name: 'Stay signed in' });
    const switchButton = screen.getByRole('button', { name: 'Switch' });
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(switchButton).toHaveFocus();
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(stay).toHaveFocus();
  });

  test('Switch exchanges the code, ends the old session on the server and signs in as the new account', async () => {
    renderAt(`/patient/dashboard?token=${CODE}&role=patient`);
    fireEvent.click(await screen.findByRole('button', { name: 'Switch' }));
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(exchanges()).toHaveLength(1);
    // The exchange goes without the current session's token.
    expect(exchanges()[0].headers.authorization).toBeUndefined();
    expect(useSession.getState()).toMatchObject({ token: 'session-of-the-google-account', role: 'patient' });
    await waitFor(() => expect(logouts()).toHaveLength(1));
    expect(logouts()[0].headers.authorization).toBe('Bearer my-own-session');
  });

  test('Switch with a code the api refuses keeps the current session and says so', async () => {
    renderAt('/patient/dashboard?token=expired-code&role=patient');
    fireEvent.click(await screen.findByRole('button', { name: 'Switch' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That Google sign-in has expired or was already used.');
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(logouts()).toHaveLength(0);
    expect(useSession.getState()).toMatchObject({ token: 'my-own-session', role: 'patient' });
  });

  test('a doctor signed in is asked too (any role)', async () => {
    useSession.getState().login('doctor-session', 'doctor');
    renderAt(`/patient/dashboard?token=${CODE}&role=patient`);
    expect(await screen.findByRole('dialog', { name: 'Switch account?' })).toBeInTheDocument();
    expect(exchanges()).toHaveLength(0);
    expect(useSession.getState()).toMatchObject({ token: 'doctor-session', role: 'doctor' });
  });
});
