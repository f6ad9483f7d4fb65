import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router-dom';
import { PrescriptionCreate } from 'shared-contracts';
import { createPrescription } from 'shared-auth';
import {
  Banner,
  Button,
  DrugAlertList,
  EmptyState,
  FormTextField,
  Heading,
  Narrow,
  Page,
  SchemaForm,
  listFromText,
  splitList,
  useSchemaForm,
} from 'shared-ui';

/** The api's schema; allergies are typed comma-separated (SPEC §5). */
const PrescriptionForm = PrescriptionCreate.extend({ allergies: listFromText(PrescriptionCreate.shape.allergies) });
import { useAssignedPatient } from './useAssignedPatient';
import { useDrugAlerts } from './useDrugAlerts';

/** /create-prescription/{id}: drug, dosage, route and frequency required; allergies comma-separated. */
export default function CreatePrescription() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { loaded, patient } = useAssignedPatient(id);
  const form = useSchemaForm(PrescriptionForm, {
    prescribedDrug: '',
    dosage: '',
    administrationRoute: '',
    dosageFrequency: '',
    allergies: '',
  });
  const [prescribedDrug, allergies] = useWatch({ control: form.control, name: ['prescribedDrug', 'allergies'] });
  const [failed, setFailed] = useState(false);
  const alerts = useDrugAlerts(id, prescribedDrug, splitList(allergies));

  async function submit(prescription: PrescriptionCreate) {
    setFailed(false);
    try {
      await createPrescription(id, prescription);
      navigate('/prescription');
    } catch {
      setFailed(true);
    }
  }

  if (loaded && !patient)
    return (
      <Page>
        <Narrow>
          <EmptyState>No assigned patients found</EmptyState>
        </Narrow>
      </Page>
    );
  return (
    <Page>
      <Narrow>
        <Heading>New prescription{patient ? ` for ${patient.name}` : ''}</Heading>
        <SchemaForm form={form} onSubmit={submit}>
          <FormTextField name="prescribedDrug" label="Drug" required />
          <FormTextField name="dosage" label="Dosage" required placeholder="500 mg" />
          <FormTextField name="administrationRoute" label="Route" required placeholder="Oral" />
          <FormTextField name="dosageFrequency" label="Frequency" required placeholder="Three times a day" />
          <FormTextField name="allergies" label="Allergies (comma-separated)" placeholder="Penicillin, latex" />
          {alerts.length > 0 && <DrugAlertList alerts={alerts} />}
          {failed && <Banner tone="error">Could not create record. Try again?</Banner>}
          <Button type="submit" disabled={form.formState.isSubmitting}>
            Finish
          </Button>
        </SchemaForm>
      </Narrow>
    </Page>
  );
}
