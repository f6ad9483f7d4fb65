import { Page, RequestList } from 'shared-ui';

export default function OutgoingRequests() {
  return (
    <Page>
      <RequestList role="patient" direction="outgoing" />
    </Page>
  );
}
