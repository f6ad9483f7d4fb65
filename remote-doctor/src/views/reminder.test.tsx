import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from '@careloop/shared-router';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import type { Reminder as ReminderItem } from '@careloop/shared-contracts';
import { formatDateTime } from '@careloop/shared-ui';
import { startFakeApi } from '../../../test-support/fake-api';
import { reminder, reminderDelivery } from '../../../test-support/fixtures';
import Reminder from './Reminder';

const REMINDER = reminder();
let scheduleStatus = 201;
let clinicReply: { status: number; body: unknown } = { status: 404, body: { error: 'Not found' } };
let scheduled: ReminderItem[] = [REMINDER];
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'POST /doctor/reminder': () =>
      scheduleStatus === 201 ? { status: 201, body: REMINDER } : { status: 403, body: { error: 'no' } },
    'GET /doctor/reminders': () => ({ status: 200, body: scheduled }),
    'GET /clinic': () => clinicReply,
    [`DELETE /doctor/reminders/${REMINDER._id}`]: { status: 200, body: { message: 'Reminder cancelled.' } },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  scheduled = [REMINDER];
  useSession.getState().login('t', 'doctor');
});

function fill() {
  const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
  type("To (patient's email)", 'asha@example.com');
  type('Subject', 'Dose');
  type('Message', 'Take it');
  type('Start date', '2026-11-21T09:00');
  type('Repeat every (days, 0 = once)', '7');
}

const renderReminder = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <Reminder />
      </MemoryRouter>
    </QueryClientProvider>,
  );

test('every field is required and the interval is at least 0', () => {
  renderReminder();
  for (const label of ["To (patient's email)", 'Subject', 'Message', 'Start date', 'Repeat every (days, 0 = once)']) {
    expect(screen.getByLabelText(label)).toBeRequired();
  }
  expect(screen.getByLabelText('Repeat every (days, 0 = once)')).toHaveAttribute('min', '0');
  expect(screen.getByLabelText('Start date')).toHaveAttribute('type', 'datetime-local');
});

test('scheduling sends an instant and says "Email scheduled successfully!"; a refusal says the failure text', async () => {
  renderReminder();
  fill();
  fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
  expect(await screen.findByText('Email scheduled successfully!')).toBeInTheDocument();
  const body = fake.requests.find((r) => r.method === 'POST')!.body as Record<string, unknown>;
  expect(body).toEqual({
    to: 'asha@example.com',
    subject: 'Dose',
    text: 'Take it',
    intervalDays: 7,
    startDate: new Date('2026-11-21T09:00').toISOString(),
  });
  scheduleStatus = 403;
  fill();
  fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
  expect(await screen.findByText('Failed to schedule email. Please check your input.')).toBeInTheDocument();
  scheduleStatus = 201;
});

test('scheduled reminders are listed and can be cancelled', async () => {
  renderReminder();
  const list = await screen.findByRole('list', { name: 'Scheduled reminders' });
  expect(list).toHaveTextContent('Dose to Asha Rao');
  expect(list).toHaveTextContent('every 7 days');
  // Cancel asks first; "Keep it" sends nothing
  fireEvent.click(within(list).getByRole('button', { name: 'Cancel' }));
  const ask = within(list).getByRole('group', { name: 'Cancel “Dose”?' });
  expect(ask).toHaveTextContent('Cancel this reminder? It will not be sent again.');
  fireEvent.click(within(ask).getByRole('button', { name: 'Keep it' }));
  expect(within(list).queryByRole('group')).toBeNull();
  expect(fake.requests.some((r) => r.method === 'DELETE')).toBe(false);
  fireEvent.click(within(list).getByRole('button', { name: 'Cancel' }));
  fireEvent.click(within(list).getByRole('button', { name: 'Yes, cancel it' }));
  await waitFor(() => expect(fake.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1));
});

test('"Email scheduled successfully!" goes as soon as the form is changed again', async () => {
  renderReminder();
  fill();
  fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
  expect(await screen.findByText('Email scheduled successfully!')).toBeInTheDocument();
  fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'Another' } });
  await waitFor(() => expect(screen.queryByText('Email scheduled successfully!')).toBeNull());
});

test("an interval below 0 or a malformed e-mail is refused by the api's schema beside the field, and nothing is sent", async () => {
  renderReminder();
  fill();
  fireEvent.change(screen.getByLabelText('Repeat every (days, 0 = once)'), { target: { value: '-1' } });
  fireEvent.change(screen.getByLabelText("To (patient's email)"), { target: { value: 'asha' } });
  fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
  await waitFor(() =>
    expect(screen.getByLabelText('Repeat every (days, 0 = once)')).toHaveAccessibleDescription(
      'Repeat every 0 days or more (0 = once)',
    ),
  );
  expect(screen.getByLabelText("To (patient's email)")).toHaveAccessibleDescription('Invalid e-mail address');
  expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
});

test('with no scheduled reminders the list says SPEC §8 "No data found"', async () => {
  scheduled = [];
  renderReminder();
  expect(await screen.findByText('No data found')).toBeVisible();
  expect(screen.queryByRole('list', { name: 'Scheduled reminders' })).toBeNull();
});

test("the reminder's timing is the clinic's: its time zone is named, and the next run is shown in it", async () => {
  clinicReply = { status: 200, body: { timeZone: 'Australia/Sydney' } };
  try {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <Reminder />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await waitFor(() =>
      expect(screen.getByLabelText('Start date')).toHaveAccessibleDescription(
        "A repeating reminder keeps its time of day in Australia/Sydney (the clinic's time zone), also across daylight-saving changes.",
      ),
    );
    // 09:00 UTC is 20:00 in Sydney (daylight time in November)
    const list = await screen.findByRole('list', { name: 'Scheduled reminders' });
    await waitFor(() => expect(list).toHaveTextContent('every 7 days, next 21 Nov 2026, 20:00'));
  } finally {
    clinicReply = { status: 404, body: { error: 'Not found' } };
  }
});

test('each reminder shows what became of its latest occurrences: scheduled, sent, failed with the reason, unknown', async () => {
  const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T09:00:00.000Z`;
  scheduled = [
    reminder({
      intervalDays: 1,
      nextRunAt: at(25),
      deliveries: [
        reminderDelivery({ occurrenceAt: at(24), state: 'scheduled', sentAt: null, attempts: 0 }),
        reminderDelivery({
          occurrenceAt: at(23),
          state: 'failed',
          error: 'Error: 421 try later',
          nextAttemptAt: '2026-11-23T09:02:00.000Z',
          sentAt: null,
        }),
        reminderDelivery({ occurrenceAt: at(22), sentAt: '2026-11-22T09:00:05.000Z' }),
      ],
      deliveryCount: 25,
    }),
    reminder({
      _id: '7a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a56',
      subject: 'Once',
      intervalDays: 0,
      status: 'completed',
      nextRunAt: null,
      deliveries: [
        reminderDelivery({
          occurrenceAt: at(20),
          state: 'unknown',
          error: 'the sending process stopped',
          sentAt: null,
        }),
      ],
      deliveryCount: 1,
    }),
    reminder({
      _id: '7a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a57',
      subject: 'Refused',
      intervalDays: 0,
      status: 'completed',
      nextRunAt: null,
      deliveries: [
        reminderDelivery({
          occurrenceAt: at(19),
          state: 'failed',
          error: "UnverifiedAddress: the patient's e-mail address is not verified",
          sentAt: null,
        }),
      ],
      deliveryCount: 1,
    }),
  ];
  renderReminder();
  const dose = await screen.findByRole('list', { name: 'Deliveries of Dose' });
  expect(
    within(dose)
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual([
    `${formatDateTime(at(24))}: scheduled`,
    `${formatDateTime(at(23))}: failed: Error: 421 try later (trying again ${formatDateTime('2026-11-23T09:02:00.000Z')})`,
    `${formatDateTime(at(22))}: sent ${formatDateTime('2026-11-22T09:00:05.000Z')}`,
  ]);
  expect(screen.getByText('Latest 3 of 25 occurrences shown; 22 older not listed.')).toBeVisible();

  expect(screen.getByRole('list', { name: 'Scheduled reminders' })).not.toHaveTextContent('Once');
  // Done reminders stay listed under their tab, so a doubtful or failed last occurrence is not hidden.
  fireEvent.click(screen.getByRole('tab', { name: /^Sent and past \(\d+\)$/ }));
  const past = screen.getByRole('list', { name: 'Past reminders' });
  expect(past).toHaveTextContent('Once to Asha Rao');
  expect(past).toHaveTextContent('once, completed');
  expect(within(past).getByRole('list', { name: 'Deliveries of Once' })).toHaveTextContent(
    `${formatDateTime(at(20))}: unknown: the sending stopped midway, so this e-mail may or may not have reached the patient; it is not sent again`,
  );
  expect(within(past).getByRole('list', { name: 'Deliveries of Refused' })).toHaveTextContent(
    `${formatDateTime(at(19))}: failed: UnverifiedAddress: the patient's e-mail address is not verified (not tried again)`,
  );
});

test("a reminder whose patient ended the doctor's access shows the name as scheduled and says so, with no address", async () => {
  scheduled = [
    reminder({
      _id: '7a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a57',
      subject: 'Review',
      status: 'cancelled',
      nextRunAt: null,
      accessEnded: true,
      to: '',
      patientName: 'Asha Rao',
    }),
  ];
  renderReminder();
  fireEvent.click(await screen.findByRole('tab', { name: 'Sent and past (1)' }));
  const past = await screen.findByRole('list', { name: 'Past reminders' });
  expect(past).toHaveTextContent('Review to Asha Rao (access ended)');
  expect(past).toHaveTextContent('cancelled: the patient ended your access');
  expect(past).not.toHaveTextContent('()');
});

test('the tabs are one tab stop; arrow keys, Home and End move between them and show their panel', async () => {
  scheduled = [];
  renderReminder();
  const first = await screen.findByRole('tab', { name: /^Scheduled/ });
  const second = screen.getByRole('tab', { name: /^Sent and past/ });
  expect([first.tabIndex, second.tabIndex]).toEqual([0, -1]);
  first.focus();
  fireEvent.keyDown(first, { key: 'ArrowRight' });
  expect(second).toHaveFocus();
  expect(second).toHaveAttribute('aria-selected', 'true');
  expect([first.tabIndex, second.tabIndex]).toEqual([-1, 0]);
  expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', second.id);
  fireEvent.keyDown(second, { key: 'ArrowRight' }); // wraps
  expect(first).toHaveFocus();
  fireEvent.keyDown(first, { key: 'End' });
  expect(second).toHaveFocus();
  fireEvent.keyDown(second, { key: 'Home' });
  expect(first).toHaveFocus();
  fireEvent.keyDown(first, { key: 'ArrowLeft' });
  expect(second).toHaveFocus();
});
