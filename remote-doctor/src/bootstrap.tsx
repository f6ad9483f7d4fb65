import { startStandalone } from 'shared-ui';
import CompleteProfile from './views/CompleteProfile';
import Dashboard from './views/Dashboard';
import EditProfile from './views/EditProfile';
import EnableTwoFactor from './views/EnableTwoFactor';
import Signup from './views/Signup';

void startStandalone('remote-doctor', [
  { path: '/doctor/signup', View: Signup },
  { path: '/doctor/dashboard', View: Dashboard },
  { path: '/doctor/edit', View: EditProfile },
  { path: '/doctor/enable2fa', View: EnableTwoFactor },
  { path: '/doctor/complete-profile', View: CompleteProfile },
]);
