import { ConnectRequestForm, Page } from 'shared-ui';

export default function AssignDoctors() {
  return (
    <Page>
      <ConnectRequestForm role="patient" />
    </Page>
  );
}
