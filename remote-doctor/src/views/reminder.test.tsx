import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'shared-router';
import { configureApi, createQueryClient, useSession } from 'shared-auth';
import { startFakeApi } from '../../../test-support/fake-api';
import Reminder from './Reminder';

const REMINDER = {
  _id: '7a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a55',
  to: 'asha@example.com',
  patientName: 'Asha Rao',
  subject: 'Dose',
  text: 'Take it',
  startDate: '2026-11-21T09:00:00.000Z',
  intervalDays: 7,
  status: 'scheduled',
  nextRunAt: '2026-11-21T09:00:00.000Z',
  lastSentAt: null,
  sentCount: 0,
};
let scheduleStatus = 201;
let clinicReply: { status: number; body: unknown } = { status: 404, body: { error: 'Not found' } };
let scheduled: (typeof REMINDER)[] = [REMINDER];
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

test('every field is required and the interval is at least 0', () => {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <Reminder />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  for (const label of ["To (patient's email)", 'Subject', 'Message', 'Start date', 'Repeat every (days, 0 = once)']) {
    expect(screen.getByLabelText(label)).toBeRequired();
  }
  expect(screen.getByLabelText('Repeat every (days, 0 = once)')).toHaveAttribute('min', '0');
  expect(screen.getByLabelText('Start date')).toHaveAttribute('type', 'datetime-local');
});

test('scheduling sends an instant and says "Email scheduled successfully!"; a refusal says the failure text', async () => {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <Reminder />
      </MemoryRouter>
    </QueryClientProvider>,
  );
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
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <Reminder />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const list = await screen.findByRole('list', { name: 'Scheduled reminders' });
  expect(list).toHaveTextContent('Dose to Asha Rao');
  expect(list).toHaveTextContent('every 7 days');
  fireEvent.click(within(list).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(fake.requests.some((r) => r.method === 'DELETE')).toBe(true));
});

test("an interval below 0 or a malformed e-mail is refused by the api's schema beside the field, and nothing is sent", async () => {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <Reminder />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  fill();
  fireEvent.change(screen.getByLabelText('Repeat every (days, 0 = once)'), { target: { value: '-1' } });
  fireEvent.change(screen.getByLabelText("To (patient's email)"), { target: { value: 'asha' } });
  fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
  await waitFor(() =>
    expect(screen.getByLabelText('Repeat every (days, 0 = once)')).toHaveAccessibleDescription('intervalDays must be at least 0'),
  );
  expect(screen.getByLabelText("To (patient's email)")).toHaveAccessibleDescription('Invalid e-mail address');
  expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
});

test('with no scheduled reminders the list says SPEC §8 "No data found"', async () => {
  scheduled = [];
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <Reminder />
      </MemoryRouter>
    </QueryClientProvider>,
  );
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
