import type { RemoteRoute } from '@careloop/shared-ui';

/**
 * Every route remote-public serves, once: exposed as remote_public/routes to the shell (which
 * sends it every URL no other remote's prefix claims, shell/src/routes.tsx) and served alone by
 * the standalone host.
 */
const routes: RemoteRoute[] = [
  { path: '/', view: () => import('./views/Landing') },
  { path: '/about', view: () => import('./views/About') },
  { path: '/team', view: () => import('./views/Team') },
  { path: '/features', view: () => import('./views/Features') },
  { path: '/contact', view: () => import('./views/Contact') },
  { path: '/login/patient', view: () => import('./views/Login'), props: { role: 'patient' } },
  { path: '/login/doctor', view: () => import('./views/Login'), props: { role: 'doctor' } },
  { path: '/patient/forgot-password', view: () => import('./views/ForgotPassword'), props: { role: 'patient' } },
  { path: '/doctor/forgot-password', view: () => import('./views/ForgotPassword'), props: { role: 'doctor' } },
  {
    path: '/patient/reset-password/:id/:token',
    view: () => import('./views/ResetPassword'),
    props: { role: 'patient' },
  },
  { path: '/doctor/reset-password/:id/:token', view: () => import('./views/ResetPassword'), props: { role: 'doctor' } },
  { path: '/patient/verify-email/:token', view: () => import('./views/VerifyEmail'), props: { role: 'patient' } },
  { path: '/doctor/verify-email/:token', view: () => import('./views/VerifyEmail'), props: { role: 'doctor' } },
];

export default routes;
