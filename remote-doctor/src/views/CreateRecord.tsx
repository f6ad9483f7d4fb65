import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useParams } from '@careloop/shared-router';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  RecordForm,
  confirmLabel,
  confirmableVitals,
  implausibleReading,
  latestObservationTime,
  recordDefaults,
  recordFormCheckDefaults,
  recordSteps,
  toRecordPayload,
  vitalsCheckName,
  type ParsedRecordForm,
  type PlacedRecordField,
} from '@careloop/shared-contracts';
import { createMedicalRecord, overrideRequiredAlerts } from '@careloop/shared-auth';
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
  usePageSubject,
} from '@careloop/shared-ui';
import { useAssignedPatient } from './useAssignedPatient';
import { useDrugAlerts } from './useDrugAlerts';

/**
 * The tick a vital outside its plausible range needs before Next (then it is recorded); nothing
 * for a plausible or empty one. A confirmation is of one value: changing the value clears it.
 */
function ConfirmImplausible({ field }: { field: PlacedRecordField }) {
  const value: unknown = useWatch({ name: field.name });
  const { getValues, setValue } = useFormContext();
  const name = vitalsCheckName(field);
  const seen = useRef(value);
  useEffect(() => {
    if (Object.is(seen.current, value)) return;
    seen.current = value;
    if (getValues(name)) setValue(name, false);
  }, [value, name, getValues, setValue]);
  const reading = implausibleReading(field, value);
  return reading ? <FormCheckboxField name={name} label={confirmLabel(field, reading)} /> : null;
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
        max={field.kind === 'number' ? field.max : field.kind === 'datetime' ? latestObservationTime() : undefined}
      />
    );
  return (
    <>
      {input}
      {field.hint && <FieldHint id={hintId}>{field.hint}</FieldHint>}
      {confirmableVitals.includes(field) && <ConfirmImplausible field={field} />}
    </>
  );
}

/** /medical-record/create/{id}: the eight-step record form, built from the record descriptor; submitted only on Finish. */
export default function CreateRecord() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { loaded, patient } = useAssignedPatient(id);
  usePageSubject(patient?.name);
  // Checked on Next and Finish only (the schema's default mode): a check on blur would move the
  // Next button between a press and its release, and the click would be lost.
  const form = useSchemaForm(RecordForm, { ...recordDefaults, vitalsCheck: recordFormCheckDefaults() });
  // Eight steps of typing are kept by the api with the step, offered back after any sign-out
  // (resumed at that step from the dashboard's notice), deleted when sent.
  const [step, setStep] = useState(0);
  const { restorePrompt, draftStatus, clearDraft } = useFormDraft(form, {
    form: 'medical-record',
    patientId: id,
    ready: Boolean(patient),
    step,
    onStepRestored: setStep,
  });
  const [prescribedDrug, allergies] = useWatch({
    control: form.control,
    name: ['treatment.prescribedDrug', 'medicalHistory.allergies'],
  });
  const { alerts, check, refusedWith } = useDrugAlerts(id, prescribedDrug ?? '', splitList(allergies ?? ''));
  // Outside the form's values: asked for only while a stop alert shows, never kept in the draft.
  const [overrideReason, setOverrideReason] = useState('');

  async function finish(values: ParsedRecordForm) {
    // the form's ticks are not sent; an empty vital goes as "not measured"
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
          step={step}
          onStepChange={setStep}
          steps={recordSteps.map((step, i) => ({
            title: step.title,
            fields: step.fields.map((f) => f.name),
            content: (
              <>
                {step.fields.map((f) => (
                  <RecordInput key={f.name} field={f} />
                ))}
                {i === recordSteps.length - 1 && (
                  <MedicationAlerts {...check} reason={overrideReason} onReasonChange={setOverrideReason} />
                )}
              </>
            ),
          }))}
        />
        {draftStatus}
      </Narrow>
    </Page>
  );
}
