import type { RouteObject } from 'react-router-dom';
import type { Role } from 'shared-contracts';
import type { ReactNode } from 'react';
import { RequireSession, useSession, useSessionFromQuery } from 'shared-auth';
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
  /** also signs in from ?token=…&role=… (SPEC §2: the patient dashboard) */
  sessionFromQuery?: boolean;
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
  { path: '/patient/forgot-password', owner: 'public', view: 'ForgotPassword', props: { role: 'patient' } },
  { path: '/doctor/forgot-password', owner: 'public', view: 'ForgotPassword', props: { role: 'doctor' } },
  { path: '/patient/reset-password/:id/:token', owner: 'public', view: 'ResetPassword', props: { role: 'patient' } },
  { path: '/doctor/reset-password/:id/:token', owner: 'public', view: 'ResetPassword', props: { role: 'doctor' } },

  { path: '/patient/signup', owner: 'patient', view: 'Signup' },
  { path: '/patient/dashboard', owner: 'patient', view: 'Dashboard', access: 'patient', sessionFromQuery: true },
  { path: '/patient/edit', owner: 'patient', view: 'EditProfile', access: 'patient' },
  { path: '/patient/complete-profile', owner: 'patient', view: 'CompleteProfile', access: 'patient' },
  { path: '/patient/enable2fa', owner: 'patient', view: 'EnableTwoFactor', access: 'patient' },
  { path: '/patient/assign-doctors', owner: 'patient', view: 'AssignDoctors', access: 'patient' },
  { path: '/patient/view-incoming-requests', owner: 'patient', view: 'IncomingRequests', access: 'patient' },
  { path: '/patient/view-outgoing-requests', owner: 'patient', view: 'OutgoingRequests', access: 'patient' },
  { path: '/patient/all-medical-records', owner: 'patient', view: 'Records', access: 'patient' },
  { path: '/patient/dashboard/medical-files', owner: 'patient', view: 'MedicalFiles', access: 'patient' },
  { path: '/patient/dashboard/medical-files/upload', owner: 'patient', view: 'UploadFile', access: 'patient' },
  { path: '/patient/access-history', owner: 'patient', view: 'AccessHistory', access: 'patient' },

  { path: '/doctor/signup', owner: 'doctor', view: 'Signup' },
  { path: '/doctor/dashboard', owner: 'doctor', view: 'Dashboard', access: 'doctor' },
  { path: '/doctor/edit', owner: 'doctor', view: 'EditProfile', access: 'doctor' },
  { path: '/doctor/access-history', owner: 'doctor', view: 'AccessHistory', access: 'doctor' },
  { path: '/doctor/complete-profile', owner: 'doctor', view: 'CompleteProfile', access: 'doctor' },
  { path: '/doctor/enable2fa', owner: 'doctor', view: 'EnableTwoFactor', access: 'doctor' },
  { path: '/doctor/assign-patients', owner: 'doctor', view: 'AssignPatients', access: 'doctor' },
  { path: '/doctor/view-incoming-requests', owner: 'doctor', view: 'IncomingRequests', access: 'doctor' },
  { path: '/doctor/view-outgoing-requests', owner: 'doctor', view: 'OutgoingRequests', access: 'doctor' },
  { path: '/doctor/all-medical-records', owner: 'doctor', view: 'Records', access: 'doctor' },
  { path: '/doctor/dashboard/medical-files', owner: 'doctor', view: 'MedicalFiles', access: 'doctor' },
  { path: '/doctor/dashboard/reminder', owner: 'doctor', view: 'Reminder', access: 'doctor' },
  { path: '/medical-record/create', owner: 'doctor', view: 'PickRecordPatient', access: 'doctor' },
  { path: '/medical-record/create/:id', owner: 'doctor', view: 'CreateRecord', access: 'doctor' },
  { path: '/create-prescription', owner: 'doctor', view: 'PickPrescriptionPatient', access: 'doctor' },
  { path: '/create-prescription/:id', owner: 'doctor', view: 'CreatePrescription', access: 'doctor' },
];

/** /, /dashboard, /prescription, /all-medical-records/:id: the shell hands over to the stored role's remote. */
function RoleView({ view, fallback }: { view: string; fallback?: 'landing' }) {
  const { isLoading, isAuthenticated, role } = useSession();
  if (isLoading) return null;
  if (isAuthenticated && role) return <RemoteView owner={role} view={view} />;
  if (fallback === 'landing') return <RemoteView owner="public" view="Landing" />;
  return <RequireSession>{null}</RequireSession>;
}

function SessionFromQuery({ role, children }: { role: Role; children: ReactNode }) {
  return useSessionFromQuery(role) ? <>{children}</> : null;
}

function element({ owner, view, access, sessionFromQuery, props }: RemoteRoute) {
  const remote = <RemoteView owner={owner} view={view} props={props} />;
  if (!access) return remote;
  const guarded = <RequireSession role={access}>{remote}</RequireSession>;
  return sessionFromQuery ? <SessionFromQuery role={access}>{guarded}</SessionFromQuery> : guarded;
}

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouterError />,
    children: [
      { path: '/', element: <RoleView view="Dashboard" fallback="landing" /> },
      { path: '/dashboard', element: <RoleView view="Dashboard" /> },
      { path: '/prescription', element: <RoleView view="Prescriptions" /> },
      { path: '/all-medical-records/:id', element: <RoleView view="MedicalRecord" /> },
      ...ROUTE_TABLE.map((route) => ({ path: route.path, element: element(route) })),
      { path: '*', element: <NotFound /> },
    ],
  },
];
