import { startStandalone } from 'shared-ui';
import Dashboard from './views/Dashboard';
import EditProfile from './views/EditProfile';
import Signup from './views/Signup';

void startStandalone('remote-doctor', [
  { path: '/doctor/signup', View: Signup },
  { path: '/doctor/dashboard', View: Dashboard },
  { path: '/doctor/edit', View: EditProfile },
]);
