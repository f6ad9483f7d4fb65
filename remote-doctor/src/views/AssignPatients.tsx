import { useDoctorProfile } from '@careloop/shared-auth';
import { ConnectRequestForm, Page } from '@careloop/shared-ui';
import { awaitingVerification } from './registration';

export default function AssignPatients() {
  const { data } = useDoctorProfile();
  return (
    <Page>
      <ConnectRequestForm role="doctor" blockedReason={awaitingVerification(data?.doctor)} />
    </Page>
  );
}
