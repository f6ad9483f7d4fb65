import { startStandalone } from 'shared-ui';
import CompleteProfile from './views/CompleteProfile';
import Dashboard from './views/Dashboard';
import EditProfile from './views/EditProfile';
import EnableTwoFactor from './views/EnableTwoFactor';
import Signup from './views/Signup';

void startStandalone('remote-patient', [
  { path: '/patient/signup', View: Signup },
  { path: '/patient/dashboard', View: Dashboard },
  { path: '/patient/edit', View: EditProfile },
  { path: '/patient/enable2fa', View: EnableTwoFactor },
  { path: '/patient/complete-profile', View: CompleteProfile },
]);
