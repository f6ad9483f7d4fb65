import { startStandalone } from 'shared-ui';
import MedicalFiles from './views/MedicalFiles';
import Reminder from './views/Reminder';
import MedicalRecord from './views/MedicalRecord';
import Prescriptions from './views/Prescriptions';
import Records from './views/Records';
import CreatePrescription from './views/CreatePrescription';
import CreateRecord from './views/CreateRecord';
import PickPrescriptionPatient from './views/PickPrescriptionPatient';
import PickRecordPatient from './views/PickRecordPatient';
import AccessHistory from './views/AccessHistory';
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
  { path: '/doctor/all-medical-records', View: Records },
  { path: '/all-medical-records/:id', View: MedicalRecord },
  { path: '/prescription', View: Prescriptions },
  { path: '/medical-record/create', View: PickRecordPatient },
  { path: '/medical-record/create/:id', View: CreateRecord },
  { path: '/create-prescription', View: PickPrescriptionPatient },
  { path: '/create-prescription/:id', View: CreatePrescription },
  { path: '/doctor/dashboard/medical-files', View: MedicalFiles },
  { path: '/doctor/dashboard/reminder', View: Reminder },
  { path: '/doctor/access-history', View: AccessHistory },
]);
