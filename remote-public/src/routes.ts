import type { RemoteRoute } from '@careloop/shared-ui';

/**
 * Every route remote-public serves, once: exposed as remote_public/routes to the shell (which
 * sends it every URL no other remote's prefix claims, shell/src/routes.tsx) and served alone by
 * the standalone host.
 */
const routes: RemoteRoute[] = [
  { path: '/', title: 'Home', view: () => import('./views/Landing') },
  { path: '/about', title: 'About', view: () => import('./views/About') },
  { path: '/team', title: 'Team', view: () => import('./views/Team') },
  { path: '/features', title: 'Features', view: () => import('./views/Features') },
  { path: '/contact', title: 'Contact', view: () => import('./views/Contact') },
  { path: '/login/patient', title: 'Patient sign-in', view: () => import('./views/Login'), props: { role: 'patient' } },
  { path: '/login/doctor', title: 'Doctor sign-in', view: () => import('./views/Login'), props: { role: 'doctor' } },
  {
    path: '/patient/forgot-password',
    title: 'Patient password reset',
    view: () => import('./views/ForgotPassword'),
    props: { role: 'patient' },
  },
  {
    path: '/doctor/forgot-password',
    title: 'Doctor password reset',
    view: () => import('./views/ForgotPassword'),
    props: { role: 'doctor' },
  },
  {
    path: '/patient/reset-password/:id/:token',
    title: 'Choose a new password',
    view: () => import('./views/ResetPassword'),
    props: { role: 'patient' },
  },
  {
    path: '/doctor/reset-password/:id/:token',
    title: 'Choose a new password',
    view: () => import('./views/ResetPassword'),
    props: { role: 'doctor' },
  },
  {
    path: '/patient/verify-email/:token',
    title: 'Verify e-mail',
    view: () => import('./views/VerifyEmail'),
    props: { role: 'patient' },
  },
  {
    path: '/doctor/verify-email/:token',
    title: 'Verify e-mail',
    view: () => import('./views/VerifyEmail'),
    props: { role: 'doctor' },
  },
];

export default routes;
