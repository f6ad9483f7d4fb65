import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { VitalSignTrend } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { VitalSignTrends } from './VitalSignTrends';

// jsdom has no canvas: the lazily loaded uPlot chart is replaced at its module edge; the wrapper,
// its name and the table are the view's own.
jest.mock('./VitalSignChart', () => ({
  __esModule: true,
  default: ({ trend }: { trend: VitalSignTrend }) => <p>chart of {trend.points.length} points</p>,
}));

const PATIENT = '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11';
const point = {
  recordId: 'r1',
  title: 'Admission',
  at: '2026-11-20T08:30',
  atSource: 'recorded' as const,
  news2: { total: 2, complete: false },
  systolic: null,
  diastolic: null,
  pulse: 112,
  respiratoryRate: null,
  oxygenSaturation: null,
  spo2Scale: 1,
  supplementalOxygen: null,
  temperature: null,
};
const trend: VitalSignTrend = {
  patientId: PATIENT,
  truncated: false,
  points: [
    point,
    {
      ...point,
      recordId: 'r2',
      title: 'Review',
      at: '2026-11-21T10:15',
      atSource: 'observed',
      news2: { total: 5, complete: true },
      systolic: 128,
      diastolic: 84,
      pulse: 88,
      respiratoryRate: 22,
      oxygenSaturation: 95,
      supplementalOxygen: false,
      temperature: 38.4,
    },
  ],
  reference: {
    systolic: { low: 90, high: 120, unit: 'mmHg' },
    diastolic: { low: 60, high: 80, unit: 'mmHg' },
    pulse: { low: 60, high: 100, unit: '/min' },
    respiratoryRate: { low: 12, high: 20, unit: '/min' },
    oxygenSaturation: { low: 96, high: 100, unit: '%', scale: 1 },
    temperature: { low: 36.1, high: 38, unit: '°C' },
  },
  news2Bands: [
    { band: 'low', low: 0, high: 4 },
    { band: 'medium', low: 5, high: 6 },
    { band: 'high', low: 7, high: 20 },
  ],
};

let answer: VitalSignTrend = trend;
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({ 'GET /vital-signs': () => ({ status: 200, body: answer }) });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  answer = trend;
  fake.requests.length = 0;
});

const renderView = (view: React.ReactNode) =>
  render(<QueryClientProvider client={createQueryClient()}>{view}</QueryClientProvider>);

test("the patient's own trend: an image named for its trends, the chart inside, and the same numbers as a table", async () => {
  useSession.getState().login('t', 'patient');
  renderView(<VitalSignTrends role="patient" />);
  const chart = await screen.findByRole('img', { name: /trends/i });
  expect(chart).toHaveAccessibleName(
    'Vital sign trends: NEWS2, blood pressure, pulse, temperature, respiratory rate and SpO2 across 2 records, 20 Nov 2026, 08:30 to 21 Nov 2026, 10:15',
  );
  expect(await within(chart).findByText('chart of 2 points')).toBeInTheDocument();
  // the patient's own: no patientId asked for
  expect(fake.requests.map((r) => r.path)).toEqual(['/vital-signs']);

  fireEvent.click(screen.getByText('Show as table'));
  const table = screen.getByRole('table', { name: /vital signs by record/i });
  const rows = within(table).getAllByRole('row').slice(1);
  const cells = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((c) => c.textContent);
  expect(cells(rows[0])).toEqual([
    '20 Nov 2026, 08:30 (written)',
    'Admission',
    'at least 2 (incomplete)',
    'not measured',
    '112',
    'not measured',
    'not measured',
    'not measured',
  ]);
  expect(cells(rows[1])).toEqual(['21 Nov 2026, 10:15', 'Review', '5', '128/84', '88', '38.4', '22', '95 (scale 1, on air)']);
  // the columns: the charted vital signs in their declared order, each under its label and unit
  expect([...table.querySelectorAll('thead th')].map((c) => c.textContent)).toEqual([
    'Time',
    'Record',
    'NEWS2',
    'Blood pressure (mmHg)',
    'Pulse (/min)',
    'Temperature (°C)',
    'Respiratory rate (/min)',
    'SpO2 (%)',
  ]);
});

test("a doctor's trend is of the patient the list is narrowed to, and none without one", async () => {
  useSession.getState().login('t', 'doctor');
  const { unmount } = renderView(<VitalSignTrends role="doctor" />);
  expect(screen.queryByRole('heading', { name: 'Vital sign trends' })).not.toBeInTheDocument();
  unmount();
  renderView(<VitalSignTrends role="doctor" patientId={PATIENT} />);
  expect(await screen.findByRole('img', { name: /^Vital sign trends: .* across 2 records/ })).toBeInTheDocument();
  expect(fake.requests.map((r) => r.path)).toEqual([`/vital-signs?patientId=${PATIENT}`]);
});

test('no records: an empty state, no chart; one record: its single point and its row', async () => {
  useSession.getState().login('t', 'patient');
  answer = { ...trend, points: [] };
  const { unmount } = renderView(<VitalSignTrends role="patient" />);
  expect(await screen.findByText('No vital signs recorded yet.')).toBeInTheDocument();
  expect(screen.queryByRole('img')).not.toBeInTheDocument();
  expect(screen.queryByRole('table')).not.toBeInTheDocument();
  unmount();

  answer = { ...trend, points: [trend.points[1]] };
  renderView(<VitalSignTrends role="patient" />);
  expect(await screen.findByRole('img')).toHaveAccessibleName(/across 1 record, 21 Nov 2026, 10:15$/);
  expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2);
});
