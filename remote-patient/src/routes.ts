import type { RemoteRoute } from 'shared-ui';

/**
 * Every route remote-patient serves, once: exposed as remote_patient/routes to the shell (which
 * sends it the URLs under /patient, shell/src/routes.tsx) and served alone by the standalone host.
 */
const routes: RemoteRoute[] = [
  { path: '/patient/signup', view: () => import('./views/Signup') },
  {
    path: '/patient/dashboard',
    view: () => import('./views/Dashboard'),
    access: 'patient',
    sessionFromQuery: true,
  },
  { path: '/patient/edit', view: () => import('./views/EditProfile'), access: 'patient' },
  { path: '/patient/complete-profile', view: () => import('./views/CompleteProfile'), access: 'patient', beforeMfa: true },
  { path: '/patient/enable2fa', view: () => import('./views/EnableTwoFactor'), access: 'patient', beforeMfa: true },
  { path: '/patient/sessions', view: () => import('./views/Sessions'), access: 'patient', beforeMfa: true },
  { path: '/patient/assign-doctors', view: () => import('./views/AssignDoctors'), access: 'patient' },
  { path: '/patient/view-incoming-requests', view: () => import('./views/IncomingRequests'), access: 'patient' },
  { path: '/patient/view-outgoing-requests', view: () => import('./views/OutgoingRequests'), access: 'patient' },
  { path: '/patient/all-medical-records', view: () => import('./views/Records'), access: 'patient' },
  { path: '/patient/dashboard/medical-files', view: () => import('./views/MedicalFiles'), access: 'patient' },
  { path: '/patient/dashboard/medical-files/upload', view: () => import('./views/UploadFile'), access: 'patient' },
  { path: '/patient/access-history', view: () => import('./views/AccessHistory'), access: 'patient' },

  // SPEC's role-dependent routes: the shell hands them to the signed-in role's remote.
  { path: '/dashboard', view: () => import('./views/Dashboard'), access: 'patient' },
  { path: '/prescription', view: () => import('./views/Prescriptions'), access: 'patient' },
  { path: '/all-medical-records/:id', view: () => import('./views/MedicalRecord'), access: 'patient' },

  // e2e/tests/remote-routes.spec.ts builds with this on: a route the shell has never heard of.
  ...(process.env.CARELOOP_QA_ROUTE ? [{ path: '/patient/qa-probe', view: () => import('./views/QaProbe') }] : []),
];

export default routes;
