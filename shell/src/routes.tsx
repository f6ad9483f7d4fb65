import type { RouteObject } from 'shared-router';
import { matchPath, useLocation } from 'shared-router';
import { RequireSession, useSession } from 'shared-auth';
import { Layout } from './Layout';
import { RouterError } from './RouterError';
import { RemoteRoutes } from './RemoteView';
import type { Owner } from './remotes';

/**
 * Who owns a URL: the one place that says it. A URL goes to the owner of its longest matching
 * prefix; the owner's own route list (remote-x/src/routes.ts, exposed as `routes`) decides what is
 * served there, so a remote adds a route under its prefixes with no shell release.
 * The exact exceptions are pages under a role's prefix that remote-public serves.
 */
export const URL_OWNERS: { prefix: string; owner: Owner }[] = [
  { prefix: '/', owner: 'public' },
  { prefix: '/patient', owner: 'patient' },
  { prefix: '/doctor', owner: 'doctor' },
  { prefix: '/medical-record', owner: 'doctor' },
  { prefix: '/create-prescription', owner: 'doctor' },
  { prefix: '/patient/forgot-password', owner: 'public' },
  { prefix: '/patient/reset-password', owner: 'public' },
  { prefix: '/patient/verify-email', owner: 'public' },
  { prefix: '/doctor/forgot-password', owner: 'public' },
  { prefix: '/doctor/reset-password', owner: 'public' },
  { prefix: '/doctor/verify-email', owner: 'public' },
];

const underPrefix = (pathname: string, prefix: string) =>
  prefix === '/' || pathname === prefix || pathname.startsWith(`${prefix}/`);

export function ownerOf(pathname: string): Owner {
  let best = URL_OWNERS[0];
  for (const entry of URL_OWNERS) {
    if (underPrefix(pathname, entry.prefix) && entry.prefix.length > best.prefix.length) best = entry;
  }
  return best.owner;
}

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
