import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link, Navigate, RouterProvider, createBrowserRouter, Outlet, type RouteObject } from '@careloop/shared-router';
import styled, { ThemeProvider } from 'styled-components';
import type { Role } from '@careloop/shared-contracts';
import {
  configureApi,
  createQueryClient,
  dashboardPath,
  loadRuntimeConfig,
  roleTitle,
  useLogout,
  useSession,
} from '@careloop/shared-auth';
import { Button, ButtonLink, Card, Page } from './components';
import { Login } from './Login';
import { guardRoute, type RemoteRoute } from './RemoteRoutes';
import { GlobalStyle, theme } from './theme';

const QaBar = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: 0.8rem;
  align-items: center;
  padding: 0.5rem 1rem;
  background: #fff7d6;
  border-bottom: 1px solid #e8d68a;
  font-size: 0.9rem;
`;

/** Where the other standalone hosts are (the origins of their manifest or remoteEntry.js URLs in runtime-config.json). */
export type StandaloneOrigins = Partial<Record<Role, string>>;

function Frame({ title, links, others }: { title: string; links: string[]; others: StandaloneOrigins }) {
  const { isAuthenticated } = useSession();
  const logout = useLogout();
  return (
    <>
      <GlobalStyle />
      <QaBar aria-label="Standalone">
        <strong>{title} — standalone</strong>
        {links.map((path) => (
          <Link key={path} to={path}>
            {path}
          </Link>
        ))}
        {(Object.keys(others) as Role[]).map((role) => (
          <a key={role} href={`${others[role]}/login/${role}`}>
            {roleTitle(role)} login (remote-{role})
          </a>
        ))}
        {isAuthenticated && (
          <Button type="button" $variant="secondary" onClick={logout}>
            Log Out
          </Button>
        )}
      </QaBar>
      <Outlet />
    </>
  );
}

/** A role's standalone start page: its dashboard when signed in as that role, its login otherwise. */
function RoleStart({ role }: { role: Role }) {
  const { isLoading, isAuthenticated, role: signedInAs } = useSession();
  if (isLoading) return null;
  return <Navigate to={isAuthenticated && signedInAs === role ? dashboardPath(role) : `/login/${role}`} replace />;
}

function StandaloneNotFound() {
  return (
    <Page>
      <Card>
        <h1>Page not found</h1>
        <p>This standalone host serves only its own remote&apos;s routes.</p>
        <ButtonLink to="/">Go to the start page</ButtonLink>
      </Card>
    </Page>
  );
}

function routeObject(route: RemoteRoute): RouteObject {
  const View = lazy(route.view);
  return {
    path: route.path,
    element: guardRoute(
      route,
      <Suspense fallback={<Page aria-busy="true" />}>
        <View {...route.props} />
      </Suspense>,
    ),
  };
}

/**
 * The routes of a remote alone in the page, for QA: the same list the shell serves, with the same
 * guards. A role's host adds that role's login at /login/<role> and starts there (or at its dashboard).
 */
export function standaloneRoutes(
  title: string,
  role: Role | null,
  routes: RemoteRoute[],
  others: StandaloneOrigins = {},
): RouteObject[] {
  const own = routes.map(routeObject);
  const extra: RouteObject[] = role
    ? [
        { path: '/', element: <RoleStart role={role} /> },
        { path: `/login/${role}`, element: <Login role={role} /> },
      ]
    : [];
  const links = [...extra, ...own].map((r) => r.path!).filter((p) => !p.includes(':'));
  return [
    {
      element: <Frame title={title} links={links} others={others} />,
      errorElement: <StandaloneNotFound />,
      children: [...extra, ...own, { path: '*', element: <StandaloneNotFound /> }],
    },
  ];
}

/**
 * Where the host's routes start: its page's `<base href>`, `/` as built, a release's folder once
 * scripts/release-remote.mjs has published it (`/releases/1.0.0-3f2a9c1b/login/patient`).
 */
export function standaloneBasename(baseURI = document.baseURI): string {
  return new URL(baseURI).pathname.replace(/\/+$/, '') || '/';
}

/**
 * Starts a remote's standalone host: the real shared-auth, the remote's own route list, no shell.
 * The api URL (and where the other hosts are) comes from the runtime-config.json served beside it.
 */
export async function startStandalone(title: string, role: Role | null, routes: RemoteRoute[]) {
  const config = await loadRuntimeConfig();
  configureApi(config.apiUrl);
  useSession.getState().start();
  // The public host links to the role hosts' logins; a role host needs no links out.
  const others: StandaloneOrigins = {};
  if (!role) {
    for (const r of ['patient', 'doctor'] as const) {
      const entry = config.remotes?.[r];
      if (entry) others[r] = new URL(entry).origin;
    }
  }
  const router = createBrowserRouter(standaloneRoutes(title, role, routes, others), { basename: standaloneBasename() });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ThemeProvider theme={theme}>
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ThemeProvider>
    </StrictMode>,
  );
}
