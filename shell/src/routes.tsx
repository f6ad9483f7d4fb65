import type { RouteObject } from 'react-router-dom';
import type { Role } from 'shared-contracts';
import { RequireSession, useSession } from 'shared-auth';
import { Layout } from './Layout';
import { NotFound } from './NotFound';
import { RouterError } from './RouterError';
import { RemoteView } from './RemoteView';
import type { Owner } from './remotes';

interface RemoteRoute {
  path: string;
  owner: Owner;
  /** the module the owner exposes, e.g. remote_patient/Dashboard */
  view: string;
  /** who may see it; anyone else is sent to / */
  access?: Role;
  props?: Record<string, unknown>;
}

/** The map: every route of the product, once, with the remote that owns it. */
export const ROUTE_TABLE: RemoteRoute[] = [
  { path: '/about', owner: 'public', view: 'About' },
  { path: '/team', owner: 'public', view: 'Team' },
  { path: '/features', owner: 'public', view: 'Features' },
  { path: '/contact', owner: 'public', view: 'Contact' },
  { path: '/login/patient', owner: 'public', view: 'Login', props: { role: 'patient' } },
  { path: '/login/doctor', owner: 'public', view: 'Login', props: { role: 'doctor' } },

  { path: '/patient/signup', owner: 'patient', view: 'Signup' },
  { path: '/patient/dashboard', owner: 'patient', view: 'Dashboard', access: 'patient' },
  { path: '/patient/edit', owner: 'patient', view: 'EditProfile', access: 'patient' },

  { path: '/doctor/signup', owner: 'doctor', view: 'Signup' },
  { path: '/doctor/dashboard', owner: 'doctor', view: 'Dashboard', access: 'doctor' },
  { path: '/doctor/edit', owner: 'doctor', view: 'EditProfile', access: 'doctor' },
];

/** /, /dashboard: the shell hands over to the stored role's remote. */
function RoleDashboard({ fallback }: { fallback?: 'landing' }) {
  const { isLoading, isAuthenticated, role } = useSession();
  if (isLoading) return null;
  if (isAuthenticated && role) return <RemoteView owner={role} view="Dashboard" />;
  if (fallback === 'landing') return <RemoteView owner="public" view="Landing" />;
  return <RequireSession>{null}</RequireSession>;
}

function element({ owner, view, access, props }: RemoteRoute) {
  const remote = <RemoteView owner={owner} view={view} props={props} />;
  return access ? <RequireSession role={access}>{remote}</RequireSession> : remote;
}

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouterError />,
    children: [
      { path: '/', element: <RoleDashboard fallback="landing" /> },
      { path: '/dashboard', element: <RoleDashboard /> },
      ...ROUTE_TABLE.map((route) => ({ path: route.path, element: element(route) })),
      { path: '*', element: <NotFound /> },
    ],
  },
];
