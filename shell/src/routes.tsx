import type { RouteObject } from '@careloop/shared-router';
import { matchPath, useLocation } from '@careloop/shared-router';
import { RequireSession, useSession } from '@careloop/shared-auth';
import { Layout } from './Layout';
import { RouterError } from './RouterError';
import { RemoteRoutes } from './RemoteView';
import { ownerOf } from './owners';

export { URL_OWNERS, ownerOf } from './owners';

/** SPEC's role-dependent routes: served by the stored role's remote, from its own list (/ shows its /dashboard). */
const ROLE_ROUTES = ['/', '/dashboard', '/prescription', '/all-medical-records/:id'];

function RoleView({ pathname }: { pathname: string }) {
  const { isLoading, isAuthenticated, role } = useSession();
  if (isLoading) return null;
  if (isAuthenticated && role) {
    return <RemoteRoutes key={role} owner={role} at={pathname === '/' ? '/dashboard' : undefined} />;
  }
  // Logged out, / is the landing page; the others ask for a session.
  if (pathname === '/') return <RemoteRoutes key="public" owner="public" />;
  return <RequireSession>{null}</RequireSession>;
}

/** Every URL: a role-dependent route, or the routes of the remote that owns it. */
function ShellRoute() {
  const { pathname } = useLocation();
  if (ROLE_ROUTES.some((pattern) => matchPath(pattern, pathname))) return <RoleView pathname={pathname} />;
  const owner = ownerOf(pathname);
  return <RemoteRoutes key={owner} owner={owner} />;
}

// One splat route: the owner's list is matched against the whole path (descendant routes of "/*").
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouterError />,
    children: [{ path: '*', element: <ShellRoute /> }],
  },
];
