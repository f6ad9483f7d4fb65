import { ConnectRequestForm, Page } from 'shared-ui';

export default function AssignPatients() {
  return (
    <Page>
      <ConnectRequestForm role="doctor" />
    </Page>
  );
}
