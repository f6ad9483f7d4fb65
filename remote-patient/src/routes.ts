import type { RemoteRoute } from '@careloop/shared-ui';

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
  {
    path: '/patient/edit',
    view: () => import('./views/EditProfile'),
    access: 'patient',
    nav: { label: 'Personal Information', icon: 'person', order: 10 },
  },
  { path: '/patient/complete-profile', view: () => import('./views/CompleteProfile'), access: 'patient', beforeMfa: true },
  {
    path: '/patient/enable2fa',
    view: () => import('./views/EnableTwoFactor'),
    access: 'patient',
    beforeMfa: true,
    nav: { label: 'Two-Factor Authentication', icon: 'lock', order: 60 },
  },
  {
    path: '/patient/sessions',
    view: () => import('./views/Sessions'),
    access: 'patient',
    beforeMfa: true,
    nav: { label: 'Signed-in devices', icon: 'devices', order: 70 },
  },
  {
    path: '/patient/notifications',
    view: () => import('./views/Notifications'),
    access: 'patient',
    nav: { label: 'Notifications', icon: 'inbox', order: 75 },
  },
  { path: '/patient/notifications/settings', view: () => import('./views/NotificationSettings'), access: 'patient' },
  {
    path: '/patient/assign-doctors',
    view: () => import('./views/AssignDoctors'),
    access: 'patient',
    nav: { label: 'Assigned Doctors', icon: 'people', order: 50 },
  },
  { path: '/patient/view-incoming-requests', view: () => import('./views/IncomingRequests'), access: 'patient' },
  { path: '/patient/view-outgoing-requests', view: () => import('./views/OutgoingRequests'), access: 'patient' },
  {
    path: '/patient/all-medical-records',
    view: () => import('./views/Records'),
    access: 'patient',
    nav: { label: 'Medical Records', icon: 'records', order: 40 },
  },
  {
    path: '/patient/dashboard/medical-files',
    view: () => import('./views/MedicalFiles'),
    access: 'patient',
    nav: { label: 'Files', icon: 'folder', order: 20 },
  },
  { path: '/patient/dashboard/medical-files/upload', view: () => import('./views/UploadFile'), access: 'patient' },
  { path: '/patient/access-history', view: () => import('./views/AccessHistory'), access: 'patient' },

  // SPEC's role-dependent routes: the shell hands them to the signed-in role's remote.
  { path: '/dashboard', view: () => import('./views/Dashboard'), access: 'patient' },
  {
    path: '/prescription',
    view: () => import('./views/Prescriptions'),
    access: 'patient',
    nav: { label: 'Prescription', icon: 'pill', order: 30 },
  },
  { path: '/all-medical-records/:id', view: () => import('./views/MedicalRecord'), access: 'patient' },

  // e2e/tests/remote-routes.spec.ts builds with this on: a route and sidebar entry the shell has never heard of.
  ...(process.env.CARELOOP_QA_ROUTE
    ? [
        {
          path: '/patient/qa-probe',
          view: () => import('./views/QaProbe'),
          access: 'patient' as const,
          nav: { label: 'QA probe', icon: 'flask', order: 15 },
        },
      ]
    : []),
];

// The same spec builds with this set to a path: a release that no longer serves that route.
export default routes.filter((route) => route.path !== process.env.CARELOOP_QA_DROP_ROUTE);
