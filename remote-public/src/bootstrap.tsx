import { startStandalone } from 'shared-ui';
import About from './views/About';
import Contact from './views/Contact';
import Features from './views/Features';
import ForgotPassword from './views/ForgotPassword';
import Landing from './views/Landing';
import Login from './views/Login';
import ResetPassword from './views/ResetPassword';
import Team from './views/Team';

void startStandalone('remote-public', [
  { path: '/', View: Landing },
  { path: '/about', View: About },
  { path: '/team', View: Team },
  { path: '/features', View: Features },
  { path: '/contact', View: Contact },
  { path: '/login/patient', View: Login, props: { role: 'patient' } },
  { path: '/login/doctor', View: Login, props: { role: 'doctor' } },
  { path: '/patient/forgot-password', View: ForgotPassword, props: { role: 'patient' } },
  { path: '/doctor/forgot-password', View: ForgotPassword, props: { role: 'doctor' } },
  { path: '/patient/reset-password/:id/:token', View: ResetPassword, props: { role: 'patient' } },
  { path: '/doctor/reset-password/:id/:token', View: ResetPassword, props: { role: 'doctor' } },
]);
