import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import type { RemoteRoute } from './RemoteRoutes';
import { standaloneBasename, standaloneRoutes } from './StandaloneHost';

// A remote's list, as remote-patient/src/routes.ts writes it.
const ROUTES: RemoteRoute[] = [
  { path: '/patient/signup', title: 'Patient sign-up', view: async () => ({ default: () => <p>signup view</p> }) },
  {
    path: '/patient/dashboard',
    title: 'Patient dashboard',
    view: async () => ({ default: () => <p>dashboard view</p> }),
    access: 'patient',
  },
  {
    path: '/patient/edit',
    title: 'Personal information',
    view: async () => ({ default: () => <p>edit view</p> }),
    access: 'patient',
  },
];
let fake: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  fake = await startFakeApi({ 'POST /patient/logout': { status: 204 } });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  localStorage.clear();
  useSession.getState().logout();
  useSession.getState().start();
});

function renderAt(path: string, role: 'patient' | null = 'patient') {
  const router = createMemoryRouter(standaloneRoutes('remote-patient', role, ROUTES), { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

test("a role's host starts at that role's real login, and its guarded pages send strangers there", async () => {
  const router = renderAt('/patient/edit');
  expect(await screen.findByRole('heading', { name: 'Patient Sign In' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login/patient');
  expect(screen.getByRole('link', { name: '/login/patient' })).toBeInTheDocument();
});

test('signed in, the start page is the dashboard; Log Out goes back to the login', async () => {
  useSession.getState().login('t', 'patient');
  const router = renderAt('/');
  expect(await screen.findByText('dashboard view')).toBeInTheDocument();
  // the route's title, as the shell gives it too (guardRoute)
  await waitFor(() => expect(document.title).toBe('Patient dashboard — CareLoop'));
  fireEvent.click(screen.getByRole('button', { name: 'Log Out' }));
  expect(await screen.findByRole('heading', { name: 'Patient Sign In' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login/patient');
});

test("an unknown URL shows the host's not-found screen, not the router's", async () => {
  renderAt('/doctor/dashboard');
  expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Go to the start page' })).toHaveAttribute('href', '/');
});

test('the public host has no login of its own to add', async () => {
  renderAt('/patient/signup', null);
  expect(await screen.findByText('signup view')).toBeInTheDocument();
  expect(screen.queryByRole('link', { name: '/login/patient' })).not.toBeInTheDocument();
});

test("the host's routes start at its page's base: the site's root as built, a release's folder once published", () => {
  expect(standaloneBasename('http://localhost:8082/')).toBe('/');
  expect(standaloneBasename('https://cdn.example.org/patient/releases/1.0.0-3f2a9c1b/')).toBe('/patient/releases/1.0.0-3f2a9c1b');
});
