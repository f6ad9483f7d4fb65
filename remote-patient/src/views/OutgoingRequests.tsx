import { Page, RequestList } from '@careloop/shared-ui';

export default function OutgoingRequests() {
  return (
    <Page>
      <RequestList role="patient" direction="outgoing" />
    </Page>
  );
}
