import { Page, PrescriptionList } from '@careloop/shared-ui';

export default function Prescriptions() {
  return (
    <Page>
      <PrescriptionList role="doctor" />
    </Page>
  );
}
