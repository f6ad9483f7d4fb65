import { startStandalone } from 'shared-ui';
import AssignPatients from './views/AssignPatients';
import CompleteProfile from './views/CompleteProfile';
import Dashboard from './views/Dashboard';
import EditProfile from './views/EditProfile';
import EnableTwoFactor from './views/EnableTwoFactor';
import IncomingRequests from './views/IncomingRequests';
import OutgoingRequests from './views/OutgoingRequests';
import Signup from './views/Signup';

void startStandalone('remote-doctor', [
  { path: '/doctor/signup', View: Signup },
  { path: '/doctor/dashboard', View: Dashboard },
  { path: '/doctor/edit', View: EditProfile },
  { path: '/doctor/enable2fa', View: EnableTwoFactor },
  { path: '/doctor/complete-profile', View: CompleteProfile },
  { path: '/doctor/assign-patients', View: AssignPatients },
  { path: '/doctor/view-incoming-requests', View: IncomingRequests },
  { path: '/doctor/view-outgoing-requests', View: OutgoingRequests },
]);
