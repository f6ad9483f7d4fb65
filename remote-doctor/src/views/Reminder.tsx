import { MIN_REMINDER_INTERVAL_DAYS, ReminderCreate } from 'shared-contracts';
import { useCancelReminder, useReminders, useScheduleReminder } from 'shared-auth';
import {
  Banner,
  Button,
  EmptyState,
  FormTextAreaField,
  FormTextField,
  Heading,
  Narrow,
  Page,
  SchemaForm,
  localTimeAsInstant,
  useSchemaForm,
} from 'shared-ui';

/** The api's schema; the start is typed in the doctor's local time. */
const ReminderForm = ReminderCreate.extend({ startDate: localTimeAsInstant(ReminderCreate.shape.startDate) });

/** /doctor/dashboard/reminder: schedule reminder e-mails to an assigned patient; see and cancel them. */
export default function Reminder() {
  const schedule = useScheduleReminder();
  const reminders = useReminders();
  const cancel = useCancelReminder();
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
          <FormTextField name="to" label="To (patient's email)" type="email" required />
          <FormTextField name="subject" label="Subject" required />
          <FormTextAreaField name="text" label="Message" required />
          <FormTextField name="startDate" label="Start date" type="datetime-local" required />
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
                  <strong>{r.subject}</strong> to {r.patientName}
                  <br />
                  <small>
                    {r.intervalDays === 0 ? 'once' : `every ${r.intervalDays} day${r.intervalDays === 1 ? '' : 's'}`}
                    {r.nextRunAt && `, next ${new Date(r.nextRunAt).toLocaleString()}`}
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
