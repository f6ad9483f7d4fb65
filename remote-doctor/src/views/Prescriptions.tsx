import { Page, PrescriptionList } from 'shared-ui';

export default function Prescriptions() {
  return (
    <Page>
      <PrescriptionList role="doctor" />
    </Page>
  );
}
