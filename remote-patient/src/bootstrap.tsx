import { startStandalone } from 'shared-ui';
import Dashboard from './views/Dashboard';
import EditProfile from './views/EditProfile';
import Signup from './views/Signup';

void startStandalone('remote-patient', [
  { path: '/patient/signup', View: Signup },
  { path: '/patient/dashboard', View: Dashboard },
  { path: '/patient/edit', View: EditProfile },
]);
