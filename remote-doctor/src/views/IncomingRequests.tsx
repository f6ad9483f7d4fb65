import { Page, RequestList } from '@careloop/shared-ui';

export default function IncomingRequests() {
  return (
    <Page>
      <RequestList role="doctor" direction="incoming" />
    </Page>
  );
}
