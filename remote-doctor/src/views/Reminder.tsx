import { useId } from 'react';
import { MIN_REMINDER_INTERVAL_DAYS, ReminderCreate, type AssignedPatient } from 'shared-contracts';
import { useCancelReminder, useDoctorProfile, useReminders, useScheduleReminder } from 'shared-auth';
import {
  Banner,
  Button,
  EmptyState,
  FormTextAreaField,
  FormTextField,
  Heading,
  Narrow,
  Page,
  PatientIdentity,
  SchemaForm,
  localTimeAsInstant,
  patientIdentityText,
  useClinicTime,
  useSchemaForm,
} from 'shared-ui';

/** Whom the typed address reaches, when it is one of the doctor's patients. */
function ReminderRecipient({ patient }: { patient?: AssignedPatient }) {
  if (!patient) return null;
  return (
    <p aria-live="polite" style={{ margin: '-0.4rem 0 0.9rem' }}>
      <PatientIdentity patient={patient} />
    </p>
  );
}

/** A scheduled reminder's patient: their identity while assigned, else the name and address it was sent to. */
const ReminderPatient = ({ reminder, patient }: { reminder: { patientName: string; to: string }; patient?: AssignedPatient }) =>
  patient ? <PatientIdentity patient={patient} as="span" /> : <>{`${reminder.patientName} (${reminder.to})`}</>;

/** The api's schema; the start is typed in the doctor's local time. */
const ReminderForm = ReminderCreate.extend({ startDate: localTimeAsInstant(ReminderCreate.shape.startDate) });

/** /doctor/dashboard/reminder: schedule reminder e-mails to an assigned patient; see and cancel them. */
export default function Reminder() {
  const schedule = useScheduleReminder();
  const reminders = useReminders();
  const cancel = useCancelReminder();
  const patients = useDoctorProfile().data?.doctor.assignedPatients ?? [];
  // A reminder is addressed by e-mail: the assigned patient behind an address, for name + birth date.
  const patientWith = (email: string) => patients.find((p) => p.email.toLowerCase() === email.trim().toLowerCase());
  const patientsListId = useId();
  const timingId = useId();
  // Repeats keep the start's time of day in the clinic's zone (api: access/reminder-schedule.ts).
  const { timeZone, format: formatDateTime } = useClinicTime();
  const form = useSchemaForm(ReminderForm, {
    to: '',
    subject: '',
    text: '',
    startDate: '',
    intervalDays: String(MIN_REMINDER_INTERVAL_DAYS),
  });

  const submit = (reminder: ReminderCreate) =>
    schedule.mutate(reminder, {
      onSuccess: () => {
        form.resetField('subject');
        form.resetField('text');
      },
    });

  const active = (reminders.data ?? []).filter((r) => r.status === 'scheduled');
  return (
    <Page>
      <Narrow style={{ maxWidth: 640 }}>
        <Heading>Send Reminder</Heading>
        <SchemaForm form={form} onSubmit={submit}>
          <FormTextField name="to" label="To (patient's email)" type="email" required list={patientsListId} />
          {/* the doctor's patients offered by address, each labelled with name and date of birth */}
          <datalist id={patientsListId}>
            {patients.map((p) => (
              <option key={p.patient} value={p.email} label={patientIdentityText(p)} />
            ))}
          </datalist>
          <ReminderRecipient patient={patientWith(form.watch('to') ?? '')} />
          <FormTextField name="subject" label="Subject" required />
          <FormTextAreaField name="text" label="Message" required />
          <FormTextField name="startDate" label="Start date" type="datetime-local" required describedBy={timingId} />
          <p id={timingId} style={{ margin: '-0.4rem 0 0.9rem', fontSize: '0.85rem', color: '#52606d' }}>
            A repeating reminder keeps its time of day in {timeZone} (the clinic&apos;s time zone), also across daylight-saving
            changes.
          </p>
          <FormTextField
            name="intervalDays"
            label="Repeat every (days, 0 = once)"
            type="number"
            min={MIN_REMINDER_INTERVAL_DAYS}
            required
          />
          {schedule.isSuccess && <Banner tone="success">Email scheduled successfully!</Banner>}
          {schedule.isError && <Banner tone="error">Failed to schedule email. Please check your input.</Banner>}
          <Button type="submit" disabled={schedule.isPending}>
            Schedule
          </Button>
        </SchemaForm>
      </Narrow>
      <Narrow style={{ maxWidth: 640 }}>
        <h2 style={{ marginTop: 0 }}>Scheduled reminders</h2>
        {/* SPEC §8's generic empty text: a list with no more specific one of its own. */}
        {reminders.data && active.length === 0 && <EmptyState>No data found</EmptyState>}
        {active.length > 0 && (
          <ul aria-label="Scheduled reminders" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {active.map((r) => (
              <li
                key={r._id}
                style={{
                  display: 'flex',
                  justifyContent: 'space-between',
                  gap: '1rem',
                  padding: '0.6rem 0',
                  borderBottom: '1px solid #d9e2ec',
                }}
              >
                <span>
                  <strong>{r.subject}</strong> to <ReminderPatient reminder={r} patient={patientWith(r.to)} />
                  <br />
                  <small>
                    {r.intervalDays === 0 ? 'once' : `every ${r.intervalDays} day${r.intervalDays === 1 ? '' : 's'}`}
                    {r.nextRunAt && `, next ${formatDateTime(r.nextRunAt)}`}
                  </small>
                </span>
                <Button type="button" $variant="secondary" disabled={cancel.isPending} onClick={() => cancel.mutate(r._id)}>
                  Cancel
                </Button>
              </li>
            ))}
          </ul>
        )}
        {cancel.isError && <Banner tone="error">Could not cancel the reminder. Try again?</Banner>}
      </Narrow>
    </Page>
  );
}
