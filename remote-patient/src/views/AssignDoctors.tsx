import { ConnectRequestForm, Page } from '@careloop/shared-ui';

export default function AssignDoctors() {
  return (
    <Page>
      <ConnectRequestForm role="patient" />
    </Page>
  );
}
