import type { RemoteRoute } from '@careloop/shared-ui';

/**
 * Every route remote-patient serves, once: exposed as remote_patient/routes to the shell (which
 * sends it the URLs under /patient, shell/src/routes.tsx) and served alone by the standalone host.
 */
const routes: RemoteRoute[] = [
  { path: '/patient/signup', title: 'Patient sign-up', view: () => import('./views/Signup') },
  {
    path: '/patient/dashboard',
    title: 'Patient dashboard',
    view: () => import('./views/Dashboard'),
    access: 'patient',
    sessionFromQuery: true,
  },
  {
    path: '/patient/edit',
    title: 'Personal information',
    view: () => import('./views/EditProfile'),
    access: 'patient',
    nav: { label: 'Personal Information', icon: 'person', order: 10 },
  },
  {
    path: '/patient/complete-profile',
    title: 'Complete your profile',
    view: () => import('./views/CompleteProfile'),
    access: 'patient',
    beforeMfa: true,
  },
  {
    path: '/patient/enable2fa',
    title: 'Two-factor authentication',
    view: () => import('./views/EnableTwoFactor'),
    access: 'patient',
    beforeMfa: true,
    nav: { label: 'Two-Factor Authentication', icon: 'lock', order: 60 },
  },
  {
    path: '/patient/sessions',
    title: 'Signed-in devices',
    view: () => import('./views/Sessions'),
    access: 'patient',
    beforeMfa: true,
    nav: { label: 'Signed-in devices', icon: 'devices', order: 70 },
  },
  {
    path: '/patient/notifications',
    title: 'Notifications',
    view: () => import('./views/Notifications'),
    access: 'patient',
    nav: { label: 'Notifications', icon: 'inbox', order: 75 },
  },
  {
    path: '/patient/notifications/settings',
    title: 'Notification settings',
    view: () => import('./views/NotificationSettings'),
    access: 'patient',
  },
  {
    path: '/patient/assign-doctors',
    title: 'Connect to doctors',
    view: () => import('./views/AssignDoctors'),
    access: 'patient',
    nav: { label: 'Assigned Doctors', icon: 'people', order: 50 },
  },
  {
    path: '/patient/view-incoming-requests',
    title: 'Incoming requests',
    view: () => import('./views/IncomingRequests'),
    access: 'patient',
  },
  {
    path: '/patient/view-outgoing-requests',
    title: 'Outgoing requests',
    view: () => import('./views/OutgoingRequests'),
    access: 'patient',
  },
  {
    path: '/patient/all-medical-records',
    title: 'Medical records',
    view: () => import('./views/Records'),
    access: 'patient',
    nav: { label: 'Medical Records', icon: 'records', order: 40 },
  },
  {
    path: '/patient/dashboard/medical-files',
    title: 'Files',
    view: () => import('./views/MedicalFiles'),
    access: 'patient',
    nav: { label: 'Files', icon: 'folder', order: 20 },
  },
  {
    path: '/patient/dashboard/medical-files/upload',
    title: 'Upload a file',
    view: () => import('./views/UploadFile'),
    access: 'patient',
  },
  { path: '/patient/access-history', title: 'Access history', view: () => import('./views/AccessHistory'), access: 'patient' },

  // SPEC's role-dependent routes: the shell hands them to the signed-in role's remote.
  { path: '/dashboard', title: 'Patient dashboard', view: () => import('./views/Dashboard'), access: 'patient' },
  {
    path: '/prescription',
    title: 'Prescriptions',
    view: () => import('./views/Prescriptions'),
    access: 'patient',
    nav: { label: 'Prescription', icon: 'pill', order: 30 },
  },
  { path: '/all-medical-records/:id', title: 'Medical record', view: () => import('./views/MedicalRecord'), access: 'patient' },

  // e2e/tests/remote-routes.spec.ts builds with this on: a route and sidebar entry the shell has never heard of.
  ...(process.env.CARELOOP_QA_ROUTE
    ? [
        {
          path: '/patient/qa-probe',
          title: 'QA probe',
          view: () => import('./views/QaProbe'),
          access: 'patient' as const,
          nav: { label: 'QA probe', icon: 'flask', order: 15 },
        },
      ]
    : []),
];

// The same spec builds with this set to a path: a release that no longer serves that route.
export default routes.filter((route) => route.path !== process.env.CARELOOP_QA_DROP_ROUTE);
