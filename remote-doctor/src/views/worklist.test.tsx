import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import type { WorklistItem } from '@careloop/shared-contracts';
import { formatDateTime } from '@careloop/shared-ui';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../../test-support/fake-api';
import { doctorMe } from '../../../test-support/fixtures';
import { ageText, changeText, news2Text, Worklist } from './Worklist';

const id = (n: number) => `6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a${String(n).padStart(2, '0')}`;
const AT = '2026-11-23T09:15:00.000Z';

const item = (n: number, name: string, over: Partial<WorklistItem> = {}): WorklistItem => ({
  patient: id(n),
  name,
  DOB: '1960-01-02',
  email: `${name.split(' ')[0].toLowerCase()}@example.com`,
  acuity: 'review',
  reasons: ['No vital signs recorded'],
  latest: null,
  change: null,
  lastRecordAt: null,
  lastVitalsAt: null,
  ...over,
});
const latest = (total: number, complete: boolean, band?: 'low' | 'low-medium' | 'medium' | 'high') => ({
  recordId: id(90 + total),
  recordedAt: AT,
  news2: { total, complete, singleParameterThree: false, applicable: true, ...(band ? { band } : {}) },
  ...(complete ? {} : { missing: ['consciousness' as const] }),
});

// The api's order, as sent: the component must keep it.
const seen = { lastRecordAt: AT, lastVitalsAt: AT };
const ITEMS: WorklistItem[] = [
  item(1, 'Sam Septic', {
    acuity: 'emergency',
    reasons: ['Possible sepsis', 'NEWS2 7 high'],
    latest: latest(7, true, 'high'),
    change: 4,
    ...seen,
  }),
  item(2, 'Pia Partial', { reasons: ['NEWS2 incomplete (at least 3)'], latest: latest(3, false), change: null, ...seen }),
  item(3, 'Nora None'),
  item(4, 'Stan Steady', { reasons: ['NEWS2 1 low'], latest: latest(1, true, 'low'), change: 0, ...seen }),
  item(5, 'Fay Falling', { acuity: 'none', reasons: [], latest: latest(0, true, 'low'), change: -2, ...seen }),
];

let worklistReply: { status: number; body: unknown } = { status: 200, body: { items: ITEMS } };
// no clinic zone known: times in the viewer's own zone, named as such
let clinicReply: { status: number; body: unknown } = { status: 404, body: { error: 'Not found' } };
const ME = {
  status: 200,
  body: doctorMe({ assignedPatients: ITEMS.map(({ patient, name, DOB, email }) => ({ patient, name, DOB, email })) }),
};
let meReply: { status: number; body: unknown } = ME;
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'GET /doctor/worklist': () => worklistReply,
    'GET /clinic': () => clinicReply,
    'GET /doctor/me': () => meReply,
    [`DELETE /doctor/patients/${id(3)}`]: { status: 200, body: { message: 'Patient released.' } },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  worklistReply = { status: 200, body: { items: ITEMS } };
  meReply = ME;
  useSession.getState().login('t', 'doctor');
});

function renderWorklist() {
  const router = createMemoryRouter([{ path: '/doctor/dashboard', element: <Worklist /> }], {
    initialEntries: ['/doctor/dashboard'],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const rows = async () => within(await screen.findByRole('region', { name: 'Assigned patients' })).findAllByRole('listitem');

test('lists the patients in the order the api ranked them, each linking to their records by id', async () => {
  renderWorklist();
  const items = await rows();
  expect(items.map((li) => within(li).getByRole('link').textContent)).toEqual([
    expect.stringMatching(/^Sam Septic/),
    expect.stringMatching(/^Pia Partial/),
    expect.stringMatching(/^Nora None/),
    expect.stringMatching(/^Stan Steady/),
    expect.stringMatching(/^Fay Falling/),
  ]);
  expect(items.map((li) => within(li).getByRole('link').getAttribute('href'))).toEqual(
    [1, 2, 3, 4, 5].map((n) => `/doctor/all-medical-records?patientId=${id(n)}`),
  );
  // identity as everywhere on the doctor side: date of birth and e-mail with the name
  expect(within(items[0]).getByRole('link')).toHaveTextContent(/Born 2 Jan 1960 \(\d+\) · sam@example\.com/);
  expect(screen.getByText(/^Most urgent first: critical values and possible sepsis/)).toBeInTheDocument();
});

test('each row says why it is there, the score, its change, how old the vitals are and the last record', async () => {
  renderWorklist();
  const facts = (await rows()).map((li) => within(li).getByTestId('worklist-facts').textContent);
  const when = `Last vitals ${ageText(AT)}Last record ${formatDateTime(AT)}`;
  expect(facts).toEqual([
    `Emergency: Possible sepsisNEWS2 7 (high)+4 since previous${when}`,
    `Review: NEWS2 incomplete (at least 3)NEWS2 incomplete (at least 3)— no comparable previous score${when}`,
    'Review: No vital signs recordedNo vital signs yet',
    `Review: NEWS2 1 lowNEWS2 1 (low)no change${when}`,
    `No alertNEWS2 0 (low)−2 since previous${when}`,
  ]);
});

test('a child: no adult NEWS2 tier is shown; the age of the last vitals is said', () => {
  const child = latest(0, true, 'low');
  expect(news2Text({ ...child, news2: { ...child.news2, applicable: false } })).toBe('NEWS2 not applicable (under 16)');
  const now = Date.parse('2026-11-26T10:00:00.000Z');
  expect(ageText('2026-11-23T09:15:00.000Z', now)).toBe('3 days ago');
  expect(ageText('2026-11-25T09:15:00.000Z', now)).toBe('1 day ago');
  expect(ageText('2026-11-26T09:15:00.000Z', now)).toBe('today');
});

test('the texts: score, incomplete lower bound, no record; change up, down, none, not comparable', () => {
  expect(news2Text(latest(7, true, 'high'))).toBe('NEWS2 7 (high)');
  expect(news2Text(latest(3, false))).toBe('NEWS2 incomplete (at least 3)');
  expect(news2Text(null)).toBe('No vital signs yet');
  expect(changeText(4)).toBe('+4 since previous');
  expect(changeText(-2)).toBe('−2 since previous');
  expect(changeText(0)).toBe('no change');
  expect(changeText(null)).toBe('—');
});

test('no assigned patients: "No assigned patients found"', async () => {
  worklistReply = { status: 200, body: { items: [] } };
  renderWorklist();
  expect(await screen.findByText('No assigned patients found')).toBeInTheDocument();
  expect(screen.queryByRole('listitem')).toBeNull();
});

test('if the worklist cannot be read the patients are still listed, their risk "not available"', async () => {
  worklistReply = { status: 404, body: { error: 'Not found' } };
  renderWorklist();
  const items = await rows();
  expect(items).toHaveLength(ITEMS.length);
  expect(items[0]).toHaveTextContent('Risk not available: the worklist could not be loaded');
  expect(screen.queryByText('No assigned patients found')).toBeNull();
});

test('if neither the worklist nor the profile can be read the card says so, never left as a wait; Try again reads both again', async () => {
  worklistReply = { status: 404, body: { error: 'Not found' } };
  meReply = { status: 404, body: { error: 'Not found' } };
  renderWorklist();
  const card = await screen.findByRole('region', { name: 'Assigned patients' });
  expect(await within(card).findByRole('alert')).toHaveTextContent('Could not load your patients.');
  expect(card).toHaveAttribute('aria-busy', 'false');
  expect(within(card).queryByText('No assigned patients found')).toBeNull();
  worklistReply = { status: 200, body: { items: ITEMS } };
  meReply = ME;
  fireEvent.click(within(card).getByRole('button', { name: 'Try again' }));
  expect(await rows()).toHaveLength(ITEMS.length);
  expect(within(card).queryByRole('alert')).toBeNull();
});

test('releasing a patient keeps its confirm step and reads the worklist again', async () => {
  renderWorklist();
  const items = await rows();
  fireEvent.click(within(items[2]).getByRole('button', { name: /^Release: Nora None/ }));
  fireEvent.click(within(items[2]).getByRole('button', { name: 'Release' }));
  await screen.findByText('Patient released.');
  await waitFor(() => expect(fake.requests.filter((r) => r.path === '/doctor/worklist')).toHaveLength(2));
});

test("times are the clinic's: in its time zone, named once above the list", async () => {
  clinicReply = { status: 200, body: { timeZone: 'Australia/Sydney' } };
  try {
    renderWorklist();
    expect(await screen.findByText("Times are in Australia/Sydney (the clinic's time zone).")).toBeInTheDocument();
    const first = (await rows())[0];
    // 09:15 UTC is 20:15 in Sydney (daylight time in November)
    await waitFor(() => expect(within(first).getByTestId('worklist-facts')).toHaveTextContent('Last record 23 Nov 2026, 20:15'));
  } finally {
    clinicReply = { status: 404, body: { error: 'Not found' } };
  }
});
