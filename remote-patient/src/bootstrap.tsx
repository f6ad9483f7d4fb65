import { startStandalone } from 'shared-ui';
import AccessHistory from './views/AccessHistory';
import MedicalFiles from './views/MedicalFiles';
import UploadFile from './views/UploadFile';
import MedicalRecord from './views/MedicalRecord';
import Prescriptions from './views/Prescriptions';
import Records from './views/Records';
import AssignDoctors from './views/AssignDoctors';
import CompleteProfile from './views/CompleteProfile';
import Dashboard from './views/Dashboard';
import EditProfile from './views/EditProfile';
import EnableTwoFactor from './views/EnableTwoFactor';
import IncomingRequests from './views/IncomingRequests';
import OutgoingRequests from './views/OutgoingRequests';
import Signup from './views/Signup';

void startStandalone('remote-patient', [
  { path: '/patient/signup', View: Signup },
  { path: '/patient/dashboard', View: Dashboard },
  { path: '/patient/edit', View: EditProfile },
  { path: '/patient/enable2fa', View: EnableTwoFactor },
  { path: '/patient/complete-profile', View: CompleteProfile },
  { path: '/patient/assign-doctors', View: AssignDoctors },
  { path: '/patient/view-incoming-requests', View: IncomingRequests },
  { path: '/patient/view-outgoing-requests', View: OutgoingRequests },
  { path: '/patient/all-medical-records', View: Records },
  { path: '/all-medical-records/:id', View: MedicalRecord },
  { path: '/prescription', View: Prescriptions },
  { path: '/patient/dashboard/medical-files', View: MedicalFiles },
  { path: '/patient/dashboard/medical-files/upload', View: UploadFile },
  { path: '/patient/access-history', View: AccessHistory },
]);
