import { Page, RecordList } from 'shared-ui';

export default function Records() {
  return (
    <Page>
      <RecordList role="patient" />
    </Page>
  );
}
