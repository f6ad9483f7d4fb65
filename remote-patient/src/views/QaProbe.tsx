import { Card, Page } from '@careloop/shared-ui';

/** Only in a build with CARELOOP_QA_ROUTE set: proves a remote adds a route with no shell release. */
export default function QaProbe() {
  return (
    <Page>
      <Card>
        <h1>QA probe</h1>
        <p>Served from remote-patient&apos;s own route list.</p>
      </Card>
    </Page>
  );
}
