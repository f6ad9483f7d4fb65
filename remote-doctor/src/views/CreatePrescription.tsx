import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { createPrescription } from 'shared-auth';
import { Banner, Button, DrugAlertList, EmptyState, Heading, Narrow, Page, TextField, splitList } from 'shared-ui';
import { useAssignedPatient } from './useAssignedPatient';
import { useDrugAlerts } from './useDrugAlerts';

/** /create-prescription/{id}: drug, dosage, route and frequency required; allergies comma-separated. */
export default function CreatePrescription() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { loaded, patient } = useAssignedPatient(id);
  const [prescribedDrug, setDrug] = useState('');
  const [dosage, setDosage] = useState('');
  const [administrationRoute, setRoute] = useState('');
  const [dosageFrequency, setFrequency] = useState('');
  const [allergies, setAllergies] = useState('');
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const alerts = useDrugAlerts(id, prescribedDrug, splitList(allergies));

  async function submit() {
    setBusy(true);
    setFailed(false);
    try {
      await createPrescription(id, { prescribedDrug, dosage, administrationRoute, dosageFrequency, allergies: splitList(allergies) });
      navigate('/prescription');
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  if (loaded && !patient) return <Page><Narrow><EmptyState>No assigned patients found</EmptyState></Narrow></Page>;
  return (
    <Page>
      <Narrow>
        <Heading>New prescription{patient ? ` for ${patient.name}` : ''}</Heading>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <TextField label="Drug" value={prescribedDrug} onChange={setDrug} required />
          <TextField label="Dosage" value={dosage} onChange={setDosage} required placeholder="500 mg" />
          <TextField label="Route" value={administrationRoute} onChange={setRoute} required placeholder="Oral" />
          <TextField label="Frequency" value={dosageFrequency} onChange={setFrequency} required placeholder="Three times a day" />
          <TextField label="Allergies (comma-separated)" value={allergies} onChange={setAllergies} placeholder="Penicillin, latex" />
          {alerts.length > 0 && <DrugAlertList alerts={alerts} />}
          {failed && <Banner tone="error">Could not create record. Try again?</Banner>}
          <Button type="submit" disabled={busy}>
            Finish
          </Button>
        </form>
      </Narrow>
    </Page>
  );
}
