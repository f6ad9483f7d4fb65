import { useParams } from '@careloop/shared-router';
import { Page, RecordPage } from '@careloop/shared-ui';

/** /all-medical-records/{id}: one record, read-only. */
export default function MedicalRecord() {
  const { id = '' } = useParams();
  return (
    <Page>
      <RecordPage role="patient" id={id} />
    </Page>
  );
}
