import { Page, RecordList } from '@careloop/shared-ui';

export default function Records() {
  return (
    <Page>
      <RecordList role="patient" />
    </Page>
  );
}
