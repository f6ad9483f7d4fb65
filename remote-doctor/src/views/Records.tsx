import { useSearchParams } from '@careloop/shared-router';
import { Page, RecordList } from '@careloop/shared-ui';

/** /doctor/all-medical-records, or ?patientId=… for one assigned patient's records (from the dashboard). */
export default function Records() {
  const [params] = useSearchParams();
  return (
    <Page>
      <RecordList role="doctor" patientId={params.get('patientId') ?? undefined} />
    </Page>
  );
}
