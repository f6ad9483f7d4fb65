import { useId, useState } from 'react';
import { useNavigate, useParams } from 'shared-router';
import { useWatch } from 'react-hook-form';
import {
  RecordForm,
  atPrefill,
  belowWarning,
  confirmLowLabel,
  measuredLabel,
  prefilledVitals,
  recordDefaults,
  recordFormCheckDefaults,
  recordSteps,
  toRecordPayload,
  vitalsCheckName,
  warnedVitals,
  type ParsedRecordForm,
  type PlacedRecordField,
} from 'shared-contracts';
import { createMedicalRecord, overrideRequiredAlerts } from 'shared-auth';
import {
  EmptyState,
  FieldHint,
  FormCheckboxField,
  FormSelectField,
  FormTextAreaField,
  FormTextField,
  Heading,
  MedicationAlerts,
  MultiStepForm,
  Narrow,
  Page,
  PatientIdentity,
  hasStop,
  overrideSatisfied,
  splitList,
  useFormDraft,
  useSchemaForm,
} from 'shared-ui';
import { useAssignedPatient } from './useAssignedPatient';
import { useDrugAlerts } from './useDrugAlerts';

/**
 * The ticks a vital sign may need (SPEC §5's seed rule turned safe): "was measured" while it still
 * shows the form's prefill (otherwise it is sent as not measured), and "confirm" for a value below
 * the warning threshold (then it is recorded).
 */
function VitalChecks({ field }: { field: PlacedRecordField }) {
  const value: unknown = useWatch({ name: field.name });
  const prefilled = prefilledVitals.includes(field) && atPrefill(field, value);
  const low = warnedVitals.includes(field) ? belowWarning(field, value) : undefined;
  return (
    <>
      {prefilled && <FormCheckboxField name={vitalsCheckName('measured', field)} label={measuredLabel(field)} />}
      {low !== undefined && (
        <FormCheckboxField name={vitalsCheckName('confirmedLow', field)} label={confirmLowLabel(field, low)} />
      )}
    </>
  );
}

/** One field of the descriptor, as its kind is entered; its error is announced beside it (Next shows nothing else). */
function RecordInput({ field }: { field: PlacedRecordField }) {
  const hintId = useId();
  const common = { name: field.name, label: field.label, alertOnError: true };
  const hint = field.hint ? { 'aria-describedby': hintId } : {};
  let input;
  if (field.kind === 'note') input = <FormTextAreaField {...common} required={field.required} />;
  else if (field.kind === 'select')
    input = <FormSelectField {...common} {...hint} options={field.options ?? []} optionLabels={field.optionLabels} />;
  else
    input = (
      <FormTextField
        {...common}
        {...hint}
        required={field.required}
        placeholder={field.placeholder}
        type={field.kind === 'number' ? 'number' : field.kind === 'datetime' ? 'datetime-local' : undefined}
        min={field.min}
        max={field.kind === 'number' ? field.max : undefined}
      />
    );
  return (
    <>
      {input}
      {field.hint && <FieldHint id={hintId}>{field.hint}</FieldHint>}
      {field.measurement && <VitalChecks field={field} />}
    </>
  );
}

/** /medical-record/create/{id}: the eight-step record form, built from the record descriptor; submitted only on Finish. */
export default function CreateRecord() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { loaded, patient, doctorId } = useAssignedPatient(id);
  // Checked on Next and Finish only (the schema's default mode): a check on blur would move the
  // Next button between a press and its release, and the click would be lost.
  const form = useSchemaForm(RecordForm, { ...recordDefaults, vitalsCheck: recordFormCheckDefaults() });
  // Eight steps of typing survive an automatic logoff (cleared on explicit logout and on Finish).
  const { restorePrompt, clearDraft } = useFormDraft(form, { accountId: doctorId, form: 'medical-record', patientId: id });
  const [prescribedDrug, allergies] = useWatch({
    control: form.control,
    name: ['treatment.prescribedDrug', 'medicalHistory.allergies'],
  });
  const { alerts, refusedWith } = useDrugAlerts(id, prescribedDrug ?? '', splitList(allergies ?? ''));
  // Outside the form's values: asked for only while a stop alert shows, never kept in the draft.
  const [overrideReason, setOverrideReason] = useState('');

  async function finish(values: ParsedRecordForm) {
    // unconfirmed prefills go as "not measured"; the form's ticks are not sent
    const payload = toRecordPayload(values);
    try {
      const created = await createMedicalRecord(
        id,
        hasStop(alerts) ? { ...payload, overrideReason: overrideReason.trim() } : payload,
      );
      clearDraft();
      navigate(`/all-medical-records/${created.record._id}`, { state: { saved: true } });
    } catch (err) {
      // A stop the form had not shown yet: show it on this last step with the reason field.
      const refused = await overrideRequiredAlerts(err);
      if (!refused) throw err;
      refusedWith(refused);
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
      <Narrow style={{ maxWidth: 680 }}>
        <Heading>New medical record{patient ? ` for ${patient.name}` : ''}</Heading>
        {patient && <PatientIdentity patient={patient} />}
        {restorePrompt}
        <MultiStepForm
          label="New medical record"
          form={form}
          onFinish={finish}
          bannerForFieldErrors
          failure={() => 'Could not create record. Try again?'}
          finishBlocked={!overrideSatisfied(alerts, overrideReason)}
          steps={recordSteps.map((step, i) => ({
            title: step.title,
            fields: step.fields.map((f) => f.name),
            content: (
              <>
                {step.fields.map((f) => (
                  <RecordInput key={f.name} field={f} />
                ))}
                {i === recordSteps.length - 1 && (
                  <MedicationAlerts alerts={alerts} reason={overrideReason} onReasonChange={setOverrideReason} />
                )}
              </>
            ),
          }))}
        />
      </Narrow>
    </Page>
  );
}
