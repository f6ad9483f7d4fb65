import type { RemoteRoute } from '@careloop/shared-ui';

/**
 * Every route remote-doctor serves, once: exposed as remote_doctor/routes to the shell (which sends
 * it the URLs under /doctor, /medical-record and /create-prescription, shell/src/routes.tsx) and
 * served alone by the standalone host.
 */
const routes: RemoteRoute[] = [
  { path: '/doctor/signup', title: 'Doctor sign-up', view: () => import('./views/Signup') },
  { path: '/doctor/dashboard', title: 'Doctor dashboard', view: () => import('./views/Dashboard'), access: 'doctor' },
  {
    path: '/doctor/edit',
    title: 'Personal information',
    view: () => import('./views/EditProfile'),
    access: 'doctor',
    nav: { label: 'Personal Information', icon: 'person', order: 10 },
  },
  { path: '/doctor/access-history', title: 'Access history', view: () => import('./views/AccessHistory'), access: 'doctor' },
  {
    path: '/doctor/complete-profile',
    title: 'Complete your profile',
    view: () => import('./views/CompleteProfile'),
    access: 'doctor',
    beforeMfa: true,
  },
  {
    path: '/doctor/enable2fa',
    title: 'Two-factor authentication',
    view: () => import('./views/EnableTwoFactor'),
    access: 'doctor',
    beforeMfa: true,
    nav: { label: 'Two-Factor Authentication', icon: 'lock', order: 60 },
  },
  {
    path: '/doctor/sessions',
    title: 'Signed-in devices',
    view: () => import('./views/Sessions'),
    access: 'doctor',
    beforeMfa: true,
    nav: { label: 'Signed-in devices', icon: 'devices', order: 70 },
  },
  {
    path: '/doctor/notifications',
    title: 'Notifications',
    view: () => import('./views/Notifications'),
    access: 'doctor',
    nav: { label: 'Notifications', icon: 'inbox', order: 90 },
  },
  {
    path: '/doctor/notifications/settings',
    title: 'Notification settings',
    view: () => import('./views/NotificationSettings'),
    access: 'doctor',
  },
  {
    path: '/doctor/assign-patients',
    title: 'Connect to patients',
    view: () => import('./views/AssignPatients'),
    access: 'doctor',
    nav: { label: 'Connect to Patients', icon: 'people', order: 50 },
  },
  {
    path: '/doctor/view-incoming-requests',
    title: 'Incoming requests',
    view: () => import('./views/IncomingRequests'),
    access: 'doctor',
  },
  {
    path: '/doctor/view-outgoing-requests',
    title: 'Outgoing requests',
    view: () => import('./views/OutgoingRequests'),
    access: 'doctor',
  },
  {
    path: '/doctor/all-medical-records',
    title: 'Medical records',
    view: () => import('./views/Records'),
    access: 'doctor',
    nav: { label: 'Medical Records', icon: 'records', order: 40 },
  },
  {
    path: '/doctor/dashboard/medical-files',
    title: 'Files',
    view: () => import('./views/MedicalFiles'),
    access: 'doctor',
    nav: { label: 'Files', icon: 'folder', order: 20 },
  },
  {
    path: '/doctor/dashboard/reminder',
    title: 'Reminders',
    view: () => import('./views/Reminder'),
    access: 'doctor',
    nav: { label: 'Send Reminder', icon: 'bell', order: 80 },
  },
  {
    path: '/medical-record/create',
    title: 'New medical record',
    view: () => import('./views/PickRecordPatient'),
    access: 'doctor',
  },
  {
    path: '/medical-record/create/:id',
    title: 'New medical record',
    view: () => import('./views/CreateRecord'),
    access: 'doctor',
  },
  {
    path: '/create-prescription',
    title: 'New prescription',
    view: () => import('./views/PickPrescriptionPatient'),
    access: 'doctor',
  },
  {
    path: '/create-prescription/:id',
    title: 'New prescription',
    view: () => import('./views/CreatePrescription'),
    access: 'doctor',
  },

  // SPEC's role-dependent routes: the shell hands them to the signed-in role's remote.
  { path: '/dashboard', title: 'Doctor dashboard', view: () => import('./views/Dashboard'), access: 'doctor' },
  {
    path: '/prescription',
    title: 'Prescriptions',
    view: () => import('./views/Prescriptions'),
    access: 'doctor',
    nav: { label: 'Prescription', icon: 'pill', order: 30 },
  },
  { path: '/all-medical-records/:id', title: 'Medical record', view: () => import('./views/MedicalRecord'), access: 'doctor' },
];

export default routes;
