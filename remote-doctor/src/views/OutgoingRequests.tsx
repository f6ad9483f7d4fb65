import { Page, RequestList } from '@careloop/shared-ui';

export default function OutgoingRequests() {
  return (
    <Page>
      <RequestList role="doctor" direction="outgoing" />
    </Page>
  );
}
