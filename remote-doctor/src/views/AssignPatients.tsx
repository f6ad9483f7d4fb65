import { ConnectRequestForm, Page } from '@careloop/shared-ui';

export default function AssignPatients() {
  return (
    <Page>
      <ConnectRequestForm role="doctor" />
    </Page>
  );
}
