import { useEffect, useId, useState } from 'react';
import {
  MIN_REMINDER_INTERVAL_DAYS,
  ReminderCreate,
  type AssignedPatient,
  type Reminder as ReminderItem,
  type ReminderDelivery,
} from '@careloop/shared-contracts';
import { useCancelReminder, useDoctorProfile, useReminders, useScheduleReminder } from '@careloop/shared-auth';
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
  SubmitButton,
  localTimeAsInstant,
  patientIdentityText,
  useClinicTime,
  useSchemaForm,
} from '@careloop/shared-ui';

/** How long "Email scheduled successfully!" stays, unless the form is changed first. */
const NOTICE_MS = 6000;

/** Whom the typed address reaches, when it is one of the doctor's patients. */
function ReminderRecipient({ patient }: { patient?: AssignedPatient }) {
  if (!patient) return null;
  return (
    <p aria-live="polite" style={{ margin: '-0.4rem 0 0.9rem' }}>
      <PatientIdentity patient={patient} />
    </p>
  );
}

/**
 * A reminder's patient: their identity while assigned; once the patient has ended the access, only
 * the name the reminder was scheduled with (the api sends nothing current of them).
 */
const ReminderPatient = ({ reminder, patient }: { reminder: ReminderItem; patient?: AssignedPatient }) =>
  reminder.accessEnded ? (
    <>{`${reminder.patientName} (access ended)`}</>
  ) : patient ? (
    <PatientIdentity patient={patient} as="span" />
  ) : (
    <>{`${reminder.patientName} (${reminder.to})`}</>
  );

/** One occurrence and what became of it, in words (times in the clinic's zone). */
function deliveryText(d: ReminderDelivery, formatDateTime: (at: string) => string): string {
  const when = formatDateTime(d.occurrenceAt);
  switch (d.state) {
    case 'scheduled':
      return `${when}: scheduled`;
    case 'sending':
      return `${when}: sending`;
    case 'sent':
      return `${when}: sent${d.sentAt ? ` ${formatDateTime(d.sentAt)}` : ''}`;
    case 'failed':
      return `${when}: failed: ${d.error ?? 'no reason given'}${
        d.nextAttemptAt ? ` (trying again ${formatDateTime(d.nextAttemptAt)})` : ' (not tried again)'
      }`;
    case 'unknown':
      return `${when}: unknown: the sending stopped midway, so this e-mail may or may not have reached the patient; it is not sent again`;
  }
}

/** What became of a reminder's latest occurrences, and whether older ones are left out. */
function Deliveries({ reminder }: { reminder: ReminderItem }) {
  const { format } = useClinicTime();
  if (reminder.deliveries.length === 0) return null;
  const more = reminder.deliveryCount - reminder.deliveries.length;
  return (
    <>
      <ul aria-label={`Deliveries of ${reminder.subject}`} style={{ margin: '0.3rem 0 0', paddingLeft: '1.1rem' }}>
        {reminder.deliveries.map((d) => (
          <li key={d.occurrenceAt}>
            <small>{deliveryText(d, format)}</small>
          </li>
        ))}
      </ul>
      {more > 0 && (
        <small>{`Latest ${reminder.deliveries.length} of ${reminder.deliveryCount} occurrences shown; ${more} older not listed.`}</small>
      )}
    </>
  );
}

const rowStyle = {
  display: 'flex',
  justifyContent: 'space-between',
  gap: '1rem',
  padding: '0.6rem 0',
  borderBottom: '1px solid #d9e2ec',
} as const;

const every = (r: ReminderItem) =>
  r.intervalDays === 0 ? 'once' : `every ${r.intervalDays} day${r.intervalDays === 1 ? '' : 's'}`;

/** The api's schema; the start is typed in the doctor's local time. */
const ReminderForm = ReminderCreate.extend({ startDate: localTimeAsInstant(ReminderCreate.shape.startDate) });

/** /doctor/dashboard/reminder: schedule reminder e-mails to an assigned patient; see and cancel them. */
type ReminderTab = 'scheduled' | 'past';
const TABS: readonly ReminderTab[] = ['scheduled', 'past'];

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

  // "Email scheduled successfully!" goes after a few seconds, or as soon as the form is changed.
  const [scheduledNotice, setScheduledNotice] = useState(false);
  useEffect(() => {
    const changes = form.watch(() => setScheduledNotice(false));
    return () => changes.unsubscribe();
  }, [form]);
  useEffect(() => {
    if (!scheduledNotice) return;
    const timer = setTimeout(() => setScheduledNotice(false), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [scheduledNotice]);
  const submit = (reminder: ReminderCreate) =>
    schedule.mutateAsync(reminder).then(
      () => {
        form.resetField('subject');
        form.resetField('text');
        setScheduledNotice(true);
      },
      () => setScheduledNotice(false),
    );

  const [tab, setTab] = useState<ReminderTab>('scheduled');
  // Cancel asks first: the reminder it stops is never sent again.
  const [confirming, setConfirming] = useState<string | null>(null);
  const tabsId = useId();
  const active = (reminders.data ?? []).filter((r) => r.status === 'scheduled');
  const past = (reminders.data ?? []).filter((r) => r.status !== 'scheduled');
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
          {scheduledNotice && <Banner tone="success">Email scheduled successfully!</Banner>}
          {schedule.isError && <Banner tone="error">Failed to schedule email. Please check your input.</Banner>}
          <SubmitButton>Schedule</SubmitButton>
        </SchemaForm>
      </Narrow>
      <Narrow style={{ maxWidth: 640 }}>
        <div
          role="tablist"
          aria-label="Reminders"
          style={{ display: 'flex', gap: '0.5rem', marginBottom: '1rem' }}
          // The tabs pattern: one tab stop, arrows (and Home/End) move between the tabs.
          onKeyDown={(e) => {
            const at = TABS.indexOf(tab);
            const next =
              e.key === 'ArrowRight'
                ? TABS[(at + 1) % TABS.length]
                : e.key === 'ArrowLeft'
                  ? TABS[(at + TABS.length - 1) % TABS.length]
                  : e.key === 'Home'
                    ? TABS[0]
                    : e.key === 'End'
                      ? TABS[TABS.length - 1]
                      : null;
            if (!next) return;
            e.preventDefault();
            setTab(next);
            document.getElementById(`${tabsId}-${next}`)?.focus();
          }}
        >
          {TABS.map((key) => (
            <Button
              key={key}
              type="button"
              role="tab"
              id={`${tabsId}-${key}`}
              aria-selected={tab === key}
              aria-controls={`${tabsId}-panel`}
              tabIndex={tab === key ? 0 : -1}
              $variant={tab === key ? 'primary' : 'secondary'}
              onClick={() => setTab(key)}
            >
              {key === 'scheduled' ? `Scheduled (${active.length})` : `Sent and past (${past.length})`}
            </Button>
          ))}
        </div>
        <div role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${tab}`}>
          {tab === 'scheduled' ? (
            <>
              {/* SPEC §8's generic empty text: a list with no more specific one of its own. */}
              {reminders.data && active.length === 0 && <EmptyState>No data found</EmptyState>}
              {active.length > 0 && (
                <ul aria-label="Scheduled reminders" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {active.map((r) => (
                    <li key={r._id} style={rowStyle}>
                      <span>
                        <strong>{r.subject}</strong> to <ReminderPatient reminder={r} patient={patientWith(r.to)} />
                        <br />
                        <small>
                          {every(r)}
                          {r.nextRunAt && `, next ${formatDateTime(r.nextRunAt)}`}
                        </small>
                        <Deliveries reminder={r} />
                        {confirming === r._id && (
                          <span
                            role="group"
                            aria-label={`Cancel “${r.subject}”?`}
                            style={{ display: 'block', marginTop: '0.5rem' }}
                          >
                            Cancel this reminder? It will not be sent again.{' '}
                            <Button
                              type="button"
                              $variant="danger"
                              busy={cancel.isPending}
                              onClick={() => cancel.mutate(r._id, { onSuccess: () => setConfirming(null) })}
                            >
                              Yes, cancel it
                            </Button>{' '}
                            <Button type="button" $variant="secondary" onClick={() => setConfirming(null)}>
                              Keep it
                            </Button>
                          </span>
                        )}
                      </span>
                      {confirming !== r._id && (
                        <Button type="button" $variant="secondary" onClick={() => setConfirming(r._id)}>
                          Cancel
                        </Button>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              {cancel.isError && <Banner tone="error">Could not cancel the reminder. Try again?</Banner>}
            </>
          ) : (
            <>
              {reminders.data && past.length === 0 && <EmptyState>No reminder has been sent or ended yet.</EmptyState>}
              {past.length > 0 && (
                <ul aria-label="Past reminders" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {past.map((r) => (
                    <li key={r._id} style={rowStyle}>
                      <span>
                        <strong>{r.subject}</strong> to <ReminderPatient reminder={r} patient={patientWith(r.to)} />
                        <br />
                        <small>{`${every(r)}, ${r.accessEnded ? 'cancelled: the patient ended your access' : r.status}`}</small>
                        <Deliveries reminder={r} />
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </div>
      </Narrow>
    </Page>
  );
}
