import { useLayoutEffect, useRef, type FormEvent, type MutableRefObject, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useController, useForm, useWatch, type Control, type UseFormTrigger } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import styled from 'styled-components';
import {
  MedicalRecordCreate, recordDefaults, recordSteps, type ParsedMedicalRecordCreate, type PlacedRecordField, type RecordFieldName,
} from 'shared-contracts';
import { createMedicalRecord } from 'shared-auth';
import {
  DrugAlertList, EmptyState, Heading, MultiStepForm, Narrow, Page, SelectField, TextAreaField, TextField, splitList, theme,
} from 'shared-ui';
import { useAssignedPatient } from './useAssignedPatient';
import { useDrugAlerts } from './useDrugAlerts';

type RecordValues = MedicalRecordCreate;

const FieldError = styled.p`
  margin: -0.6rem 0 0.9rem;
  color: ${theme.color.danger};
  font-size: 0.9rem;
`;

/** One field of the descriptor, as its kind is entered; its error, if any, right beside it. */
function RecordInput({ field, control }: { field: PlacedRecordField; control: Control<RecordValues> }) {
  const { field: input, fieldState } = useController({ control, name: field.name });
  const value = input.value === undefined || input.value === null ? '' : String(input.value);
  const common = { label: field.label, value, onChange: input.onChange, required: field.required };
  return (
    <>
      {field.kind === 'note' && <TextAreaField {...common} />}
      {field.kind === 'select' && <SelectField {...common} options={field.options ?? []} />}
      {(field.kind === 'text' || field.kind === 'number') && (
        <TextField
          {...common}
          name={field.name}
          onBlur={input.onBlur}
          placeholder={field.placeholder}
          type={field.kind === 'number' ? 'number' : undefined}
          min={field.min}
        />
      )}
      {fieldState.error && <FieldError role="alert">{fieldState.error.message}</FieldError>}
    </>
  );
}

/** Tells the step gate which fields the step on screen holds (only the current step is mounted). */
function StepFields({ names, current, children }: { names: RecordFieldName[]; current: MutableRefObject<RecordFieldName[]>; children: ReactNode }) {
  useLayoutEffect(() => {
    current.current = names;
  }, [current, names]);
  return <>{children}</>;
}

/**
 * MultiStepForm moves to the next step (or finishes) on submit. This gate catches the submit first,
 * has react-hook-form validate the fields of the step on screen, and lets it through only when they
 * pass, so an error is shown beside its field on its own step.
 */
function useStepGate(trigger: UseFormTrigger<RecordValues>) {
  const current = useRef<RecordFieldName[]>([]);
  const approved = useRef(false);
  function onSubmitCapture(e: FormEvent) {
    if (approved.current) {
      approved.current = false;
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    const form = e.target;
    if (!(form instanceof HTMLFormElement)) return;
    void trigger(current.current).then((valid) => {
      if (!valid) return;
      approved.current = true;
      form.requestSubmit();
    });
  }
  return { current, onSubmitCapture };
}

/** /medical-record/create/{id}: the eight-step record form, built from the record descriptor; submitted only on Finish. */
export default function CreateRecord() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { loaded, patient } = useAssignedPatient(id);
  const { control, trigger, handleSubmit, setError, formState } = useForm<RecordValues, unknown, ParsedMedicalRecordCreate>({
    resolver: zodResolver(MedicalRecordCreate),
    defaultValues: recordDefaults,
    mode: 'onTouched',
  });
  const gate = useStepGate(trigger);
  const [prescribedDrug, allergies] = useWatch({ control, name: ['treatment.prescribedDrug', 'medicalHistory.allergies'] });
  const alerts = useDrugAlerts(id, prescribedDrug ?? '', splitList(allergies ?? ''));

  async function finish(record: ParsedMedicalRecordCreate) {
    try {
      const created = await createMedicalRecord(id, record);
      navigate(`/all-medical-records/${created.record._id}`);
    } catch {
      setError('root', { message: 'Could not create record. Try again?' });
    }
  }

  if (loaded && !patient) return <Page><Narrow><EmptyState>No assigned patients found</EmptyState></Narrow></Page>;
  return (
    <Page>
      <Narrow style={{ maxWidth: 680 }}>
        <Heading>New medical record{patient ? ` for ${patient.name}` : ''}</Heading>
        <div onSubmitCapture={gate.onSubmitCapture}>
          <MultiStepForm
            label="New medical record"
            busy={formState.isSubmitting}
            onFinish={() => void handleSubmit(finish)()}
            error={formState.errors.root?.message}
            steps={recordSteps.map((step, i) => ({
              title: step.title,
              content: (
                <StepFields names={step.fields.map((f) => f.name)} current={gate.current}>
                  {step.fields.map((f) => <RecordInput key={f.name} field={f} control={control} />)}
                  {i === recordSteps.length - 1 && alerts.length > 0 && <DrugAlertList alerts={alerts} />}
                </StepFields>
              ),
            }))}
          />
        </div>
      </Narrow>
    </Page>
  );
}
