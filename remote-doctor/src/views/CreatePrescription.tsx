import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate, useParams } from 'shared-router';
import { PrescriptionCreate } from 'shared-contracts';
import { createPrescription, overrideRequiredAlerts } from 'shared-auth';
import {
  Banner,
  Button,
  EmptyState,
  FormTextField,
  Heading,
  MedicationAlerts,
  Narrow,
  Page,
  PatientIdentity,
  SchemaForm,
  hasStop,
  listFromText,
  overrideSatisfied,
  splitList,
  useFormDraft,
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
  const { loaded, patient, doctorId } = useAssignedPatient(id);
  const form = useSchemaForm(PrescriptionForm, {
    prescribedDrug: '',
    dosage: '',
    administrationRoute: '',
    dosageFrequency: '',
    allergies: '',
  });
  // The typing survives an automatic logoff (cleared on explicit logout and on Finish).
  const { restorePrompt, clearDraft } = useFormDraft(form, { accountId: doctorId, form: 'prescription', patientId: id });
  const [prescribedDrug, allergies] = useWatch({ control: form.control, name: ['prescribedDrug', 'allergies'] });
  const [failed, setFailed] = useState(false);
  const { alerts, refusedWith } = useDrugAlerts(id, prescribedDrug, splitList(allergies));
  // Outside the form's values: asked for only while a stop alert shows, never kept in the draft.
  const [overrideReason, setOverrideReason] = useState('');
  const blocked = !overrideSatisfied(alerts, overrideReason);

  async function submit(prescription: PrescriptionCreate) {
    setFailed(false);
    try {
      await createPrescription(id, hasStop(alerts) ? { ...prescription, overrideReason: overrideReason.trim() } : prescription);
      clearDraft();
      navigate('/prescription');
    } catch (err) {
      // A stop the form had not shown yet (typing was faster than the check): show it and ask why.
      const refused = await overrideRequiredAlerts(err);
      if (refused) refusedWith(refused);
      else setFailed(true);
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
        {patient && <PatientIdentity patient={patient} />}
        {restorePrompt}
        <SchemaForm form={form} onSubmit={submit}>
          <FormTextField name="prescribedDrug" label="Drug" required />
          <FormTextField name="dosage" label="Dosage" required placeholder="500 mg" />
          <FormTextField name="administrationRoute" label="Route" required placeholder="Oral" />
          <FormTextField name="dosageFrequency" label="Frequency" required placeholder="Three times a day" />
          <FormTextField name="allergies" label="Allergies (comma-separated)" placeholder="Penicillin, latex" />
          <MedicationAlerts alerts={alerts} reason={overrideReason} onReasonChange={setOverrideReason} />
          {failed && <Banner tone="error">Could not create record. Try again?</Banner>}
          <Button type="submit" disabled={form.formState.isSubmitting || blocked}>
            Finish
          </Button>
        </SchemaForm>
      </Narrow>
    </Page>
  );
}
