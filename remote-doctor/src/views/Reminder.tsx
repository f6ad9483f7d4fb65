import { useState } from 'react';
import { MIN_REMINDER_INTERVAL_DAYS } from 'shared-contracts';
import { useCancelReminder, useReminders, useScheduleReminder } from 'shared-auth';
import { Banner, Button, EmptyState, Heading, Narrow, Page, TextAreaField, TextField } from 'shared-ui';

/** /doctor/dashboard/reminder: schedule reminder e-mails to an assigned patient; see and cancel them. */
export default function Reminder() {
  const schedule = useScheduleReminder();
  const reminders = useReminders();
  const cancel = useCancelReminder();
  const [to, setTo] = useState('');
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const [startDate, setStartDate] = useState('');
  const [intervalDays, setIntervalDays] = useState(String(MIN_REMINDER_INTERVAL_DAYS));

  const submit = () =>
    schedule.mutate(
      // datetime-local has no zone: it is the doctor's local time, sent as an instant.
      { to, subject, text, startDate: new Date(startDate).toISOString(), intervalDays: Number(intervalDays) },
      { onSuccess: () => { setSubject(''); setText(''); } },
    );

  const active = (reminders.data ?? []).filter((r) => r.status === 'scheduled');
  return (
    <Page>
      <Narrow style={{ maxWidth: 640 }}>
        <Heading>Send Reminder</Heading>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <TextField label="To (patient's email)" type="email" value={to} onChange={setTo} required />
          <TextField label="Subject" value={subject} onChange={setSubject} required />
          <TextAreaField label="Message" value={text} onChange={setText} required />
          <TextField label="Start date" type="datetime-local" value={startDate} onChange={setStartDate} required />
          <TextField label="Repeat every (days, 0 = once)" type="number" min={MIN_REMINDER_INTERVAL_DAYS} value={intervalDays} onChange={setIntervalDays} required />
          {schedule.isSuccess && <Banner tone="success">Email scheduled successfully!</Banner>}
          {schedule.isError && <Banner tone="error">Failed to schedule email. Please check your input.</Banner>}
          <Button type="submit" disabled={schedule.isPending}>
            Schedule
          </Button>
        </form>
      </Narrow>
      <Narrow style={{ maxWidth: 640 }}>
        <h2 style={{ marginTop: 0 }}>Scheduled reminders</h2>
        {reminders.data && active.length === 0 && <EmptyState>No reminders scheduled</EmptyState>}
        {active.length > 0 && (
          <ul aria-label="Scheduled reminders" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {active.map((r) => (
              <li key={r._id} style={{ display: 'flex', justifyContent: 'space-between', gap: '1rem', padding: '0.6rem 0', borderBottom: '1px solid #d9e2ec' }}>
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
