import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { useNavigate, useParams } from '@careloop/shared-router';
import {
  CalendarDate,
  MAX_COURSE_DAYS,
  PrescriptionFields,
  type AllergyIntolerance,
  type PrescriptionCreate,
} from '@careloop/shared-contracts';
import { createPrescription, overrideRequiredAlerts, useAllergies } from '@careloop/shared-auth';
import {
  Banner,
  EmptyState,
  FormSelectField,
  FormTextField,
  Heading,
  MedicationAlerts,
  Narrow,
  Page,
  PatientIdentity,
  SchemaForm,
  emptyAsUnset,
  hasStop,
  listFromText,
  overrideSatisfied,
  splitList,
  useFormDraft,
  useSchemaForm,
  usePageSubject,
  SubmitButton,
} from '@careloop/shared-ui';

const COURSES = ['days', 'until', 'long-term'] as const;
const COURSE_LABELS = { days: 'For a number of days', until: 'Until a date', 'long-term': 'Long-term (until stopped)' };

/**
 * The api's fields; allergies are typed comma-separated (SPEC §5), and how long it runs is chosen:
 * a number of days, a last day, or long-term (the api stores exactly one).
 */
const PrescriptionForm = PrescriptionFields.extend({
  allergies: listFromText(PrescriptionFields.shape.allergies),
  course: z.enum(COURSES, { error: 'Choose how long it runs' }),
  durationDays: emptyAsUnset(z.coerce.number<string>().int().min(1).max(MAX_COURSE_DAYS).optional()),
  endDate: emptyAsUnset(CalendarDate.optional()),
}).superRefine((v, ctx) => {
  if (v.course === 'days' && v.durationDays === undefined)
    ctx.addIssue({ code: 'custom', path: ['durationDays'], message: 'How many days?' });
  if (v.course === 'until' && v.endDate === undefined)
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'Which is the last day?' });
});

/** The payload: the one course chosen. */
function payloadOf({ course, durationDays, endDate, ...rest }: z.output<typeof PrescriptionForm>): PrescriptionCreate {
  if (course === 'days') return { ...rest, durationDays };
  if (course === 'until') return { ...rest, endDate };
  return { ...rest, longTerm: true };
}

/** An allergy on file as the prescription's allergy box lists it: "Penicillin (anaphylaxis)". */
const allergyLine = (a: AllergyIntolerance) =>
  `${a.substance.text}${a.reactions.length ? ` (${a.reactions.map((r) => r.manifestation).join(', ')})` : ''}`.replace(
    /,\s*/g,
    '; ',
  );
const inForce = (a: AllergyIntolerance) => a.clinicalStatus === 'active' && a.verificationStatus !== 'refuted';

import { useAssignedPatient } from './useAssignedPatient';
import { useDrugAlerts } from './useDrugAlerts';

/** /create-prescription/{id}: drug, dosage, route and frequency required; allergies comma-separated. */
export default function CreatePrescription() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { loaded, patient } = useAssignedPatient(id);
  usePageSubject(patient?.name);
  const form = useSchemaForm(PrescriptionForm, {
    prescribedDrug: '',
    dosage: '',
    administrationRoute: '',
    dosageFrequency: '',
    allergies: '',
    course: '',
    durationDays: '',
    endDate: '',
  });
  // Kept by the api as it is typed, offered back after any sign-out, deleted when sent.
  const { restorePrompt, draftStatus, clearDraft } = useFormDraft(form, {
    form: 'prescription',
    patientId: id,
    ready: Boolean(patient),
  });
  const [prescribedDrug, allergies, course] = useWatch({
    control: form.control,
    name: ['prescribedDrug', 'allergies', 'course'],
  });
  const [failed, setFailed] = useState(false);
  const { alerts, check, refusedWith } = useDrugAlerts(id, prescribedDrug, splitList(allergies));
  const onFile = useAllergies(patient ? id : undefined);
  // The allergy box starts from the patient's allergies on file (a restored draft keeps what was typed).
  useEffect(() => {
    if (!onFile.data || form.getValues('allergies')) return;
    const lines = [...new Set(onFile.data.items.filter(inForce).map(allergyLine))];
    if (lines.length) form.setValue('allergies', lines.join(', '));
  }, [onFile.data, form]);
  // Outside the form's values: asked for only while a stop alert shows, never kept in the draft.
  const [overrideReason, setOverrideReason] = useState('');
  const blocked = !overrideSatisfied(alerts, overrideReason);

  async function submit(values: z.output<typeof PrescriptionForm>) {
    setFailed(false);
    const prescription = payloadOf(values);
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
          <FormSelectField name="course" label="How long" options={COURSES} optionLabels={COURSE_LABELS} />
          {course === 'days' && <FormTextField name="durationDays" label="Number of days" required inputMode="numeric" />}
          {course === 'until' && <FormTextField name="endDate" label="Last day" required type="date" />}
          <FormTextField name="allergies" label="Allergies (comma-separated)" placeholder="Penicillin, latex" />
          <MedicationAlerts {...check} reason={overrideReason} onReasonChange={setOverrideReason} />
          {failed && <Banner tone="error">Could not create record. Try again?</Banner>}
          <SubmitButton disabled={blocked}>Finish</SubmitButton>
          {draftStatus}
        </SchemaForm>
      </Narrow>
    </Page>
  );
}
