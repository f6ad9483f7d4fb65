import { Page, RequestList } from 'shared-ui';

export default function IncomingRequests() {
  return (
    <Page>
      <RequestList role="patient" direction="incoming" />
    </Page>
  );
}
