import { useNavigate, useParams } from 'react-router-dom';
import { useWatch } from 'react-hook-form';
import {
  MedicalRecordCreate,
  recordDefaults,
  recordSteps,
  type ParsedMedicalRecordCreate,
  type PlacedRecordField,
} from 'shared-contracts';
import { createMedicalRecord } from 'shared-auth';
import {
  DrugAlertList,
  EmptyState,
  FormSelectField,
  FormTextAreaField,
  FormTextField,
  Heading,
  MultiStepForm,
  Narrow,
  Page,
  splitList,
  useSchemaForm,
} from 'shared-ui';
import { useAssignedPatient } from './useAssignedPatient';
import { useDrugAlerts } from './useDrugAlerts';

/** One field of the descriptor, as its kind is entered; its error is announced beside it (Next shows nothing else). */
function RecordInput({ field }: { field: PlacedRecordField }) {
  const common = { name: field.name, label: field.label, alertOnError: true };
  if (field.kind === 'note') return <FormTextAreaField {...common} required={field.required} />;
  if (field.kind === 'select') return <FormSelectField {...common} options={field.options ?? []} />;
  return (
    <FormTextField
      {...common}
      required={field.required}
      placeholder={field.placeholder}
      type={field.kind === 'number' ? 'number' : undefined}
      min={field.min}
    />
  );
}

/** /medical-record/create/{id}: the eight-step record form, built from the record descriptor; submitted only on Finish. */
export default function CreateRecord() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { loaded, patient } = useAssignedPatient(id);
  // Checked on Next and Finish only (the schema's default mode): a check on blur would move the
  // Next button between a press and its release, and the click would be lost.
  const form = useSchemaForm(MedicalRecordCreate, recordDefaults);
  const [prescribedDrug, allergies] = useWatch({
    control: form.control,
    name: ['treatment.prescribedDrug', 'medicalHistory.allergies'],
  });
  const alerts = useDrugAlerts(id, prescribedDrug ?? '', splitList(allergies ?? ''));

  async function finish(record: ParsedMedicalRecordCreate) {
    const created = await createMedicalRecord(id, record);
    navigate(`/all-medical-records/${created.record._id}`);
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
      <Narrow style={{ maxWidth: 680 }}>
        <Heading>New medical record{patient ? ` for ${patient.name}` : ''}</Heading>
        <MultiStepForm
          label="New medical record"
          form={form}
          onFinish={finish}
          bannerForFieldErrors
          failure={() => 'Could not create record. Try again?'}
          steps={recordSteps.map((step, i) => ({
            title: step.title,
            fields: step.fields.map((f) => f.name),
            content: (
              <>
                {step.fields.map((f) => (
                  <RecordInput key={f.name} field={f} />
                ))}
                {i === recordSteps.length - 1 && alerts.length > 0 && <DrugAlertList alerts={alerts} />}
              </>
            ),
          }))}
        />
      </Narrow>
    </Page>
  );
}
