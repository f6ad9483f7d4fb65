import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { OVERRIDE_REQUIRED_ERROR, type MedicationAlert } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../../test-support/fake-api';
import { prescription } from '../../../test-support/fixtures';
import CreatePrescription from './CreatePrescription';

const PATIENT_ID = '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11';
const doctor = {
  _id: '0b3c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a22',
  name: 'Dr. Lee',
  email: 'lee@example.com',
  yearsOfExperience: 12,
  specialization: [],
  qualifications: [],
  gender: 'Male',
  twoFactorEnabled: false,
  pendingEmail: null,
  emailVerified: true,
  registration: { register: 'GMC', number: '1234567', verified: true },
  mayRequestConnections: true,
  assignedPatients: [{ patient: PATIENT_ID, name: 'Asha Rao', DOB: '1980-03-12', email: 'asha@example.com' }],
};
// what the api answers a prescription with (call() checks replies against the contract in tests)
const prescribed = {
  ...prescription({ _id: '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a55', patientId: PATIENT_ID, allergies: ['Penicillin', 'latex'] }),
  alerts: [],
};
const alert = (severity: MedicationAlert['severity'], kind: MedicationAlert['kind'], substance: string, message: string) => ({
  kind,
  severity,
  substance,
  matchedText: 'amoxicilin',
  message,
  source: 'test',
});
const STOP = {
  ...alert('stop', 'allergy', 'Penicillin', 'amoxicilin is a penicillin; the patient has a penicillin allergy with anaphylaxis.'),
  readAs: 'amoxicillin',
};
const WARNING = alert('warning', 'interaction', 'Warfarin', 'Bleeding risk with warfarin.');
const INFO = alert('info', 'intolerance', 'Codeine', 'Codeine intolerance (vomiting).');
let checked: MedicationAlert[] = [];
let uncoded: string[] = [];
let checkStatus = 200;
let onFile: unknown[] = [];
let createStatus = 201;
let fake: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  fake = await startFakeApi({
    'GET /doctor/me': { status: 200, body: { doctor, profileUrl: null } },
    [`GET /drug-alerts/${PATIENT_ID}`]: () =>
      checkStatus === 200
        ? { status: 200, body: { alerts: checked, allergies: [], activeMedications: [], uncoded, omitted: 0 } }
        : { status: checkStatus, body: { error: 'Service unavailable' } },
    [`GET /allergies/${PATIENT_ID}`]: () => ({ status: 200, body: { items: onFile, notes: [] } }),
    [`POST /prescription/${PATIENT_ID}`]: (req) => {
      // as the api does: a stop without a reason is refused with the alerts
      if (createStatus === 409 && !(req.body as { overrideReason?: string }).overrideReason)
        return { status: 409, body: { error: OVERRIDE_REQUIRED_ERROR, alerts: [STOP] } };
      return createStatus === 500 ? { status: 500, body: { error: 'no' } } : { status: 201, body: prescribed };
    },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  createStatus = 201;
  checked = [];
  uncoded = [];
  checkStatus = 200;
  onFile = [];
  useSession.getState().login('t', 'doctor');
});

function renderForm() {
  const path = `/create-prescription/${PATIENT_ID}`;
  const router = createMemoryRouter(
    [
      { path: '/create-prescription/:id', element: <CreatePrescription /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const posts = () => fake.requests.filter((r) => r.method === 'POST');

test("drug, dosage, route and frequency are required by the api's schema, each error beside its field", async () => {
  renderForm();
  await screen.findByRole('heading', { name: 'New prescription for Asha Rao' });
  type('Drug', 'Amoxicillin');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(screen.getByLabelText('Dosage')).toHaveAccessibleDescription('Required'));
  expect(screen.getByLabelText('Route')).toHaveAttribute('aria-invalid', 'true');
  expect(screen.getByLabelText('Frequency')).toHaveAttribute('aria-invalid', 'true');
  expect(screen.getByLabelText('Drug')).not.toHaveAttribute('aria-invalid');
  expect(posts()).toHaveLength(0);
});

test('allergies typed comma-separated are sent as a list; a failure says "Could not create record. Try again?"', async () => {
  createStatus = 500;
  const router = renderForm();
  await screen.findByRole('heading', { name: 'New prescription for Asha Rao' });
  type('Drug', 'Amoxicillin');
  type('Dosage', '500 mg');
  type('Route', 'Oral');
  type('Frequency', 'Three times a day');
  type('How long', 'days');
  type('Number of days', '7');
  type('Allergies (comma-separated)', ' Penicillin, latex ,');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Could not create record. Try again?');
  expect(posts()[0].body).toEqual({
    prescribedDrug: 'Amoxicillin',
    dosage: '500 mg',
    administrationRoute: 'Oral',
    dosageFrequency: 'Three times a day',
    durationDays: 7,
    allergies: ['Penicillin', 'latex'],
  });
  createStatus = 201;
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/prescription'));
});

async function fillRequired(drug: string) {
  await screen.findByRole('heading', { name: 'New prescription for Asha Rao' });
  type('Drug', drug);
  type('Dosage', '500 mg');
  type('Route', 'Oral');
  type('Frequency', 'Three times a day');
  type('How long', 'days');
  type('Number of days', '7');
}

test('alerts are listed by severity before Finish; a stop blocks Finish until a reason is given, which is sent', async () => {
  checked = [STOP, WARNING, INFO];
  const router = renderForm();
  await fillRequired('amoxicilin');
  const stop = await screen.findByRole('alert', { name: 'Stop alerts' });
  expect(stop).toHaveTextContent('Stop: amoxicilin is a penicillin');
  expect(stop).toHaveTextContent('(read as amoxicillin)');
  expect(screen.getByLabelText('Warning alerts')).toHaveTextContent('Warning: Bleeding risk with warfarin.');
  expect(screen.getByLabelText('Information alerts')).toHaveTextContent('Information: Codeine intolerance (vomiting).');
  // stop, then warning, then information
  const groups = screen.getAllByLabelText(/^(Stop|Warning|Information) alerts$/).map((g) => g.getAttribute('aria-label'));
  expect(groups).toEqual(['Stop alerts', 'Warning alerts', 'Information alerts']);

  const finish = screen.getByRole('button', { name: 'Finish' });
  expect(finish).toBeDisabled();
  type('Reason to override', 'ab');
  expect(finish).toBeDisabled();
  type('Reason to override', ' Tolerated amoxicillin in 2024 ');
  expect(finish).toBeEnabled();
  fireEvent.click(finish);
  await waitFor(() => expect(router.state.location.pathname).toBe('/prescription'));
  expect(posts()[0].body).toMatchObject({ prescribedDrug: 'amoxicilin', overrideReason: 'Tolerated amoxicillin in 2024' });
});

test('warnings alone never block and send no reason', async () => {
  checked = [WARNING];
  const router = renderForm();
  await fillRequired('Ibuprofen');
  await screen.findByLabelText('Warning alerts');
  expect(screen.queryByRole('alert', { name: 'Stop alerts' })).toBeNull();
  expect(screen.queryByLabelText('Reason to override')).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/prescription'));
  expect(posts()[0].body).not.toHaveProperty('overrideReason');
});

test("a 409 (a stop the check had not shown yet) shows the api's alerts and the reason field; with a reason it goes", async () => {
  createStatus = 409;
  const router = renderForm();
  await fillRequired('amoxicilin');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  expect(await screen.findByRole('alert', { name: 'Stop alerts' })).toHaveTextContent('Stop: amoxicilin is a penicillin');
  expect(screen.queryByText('Could not create record. Try again?')).toBeNull();
  expect(screen.getByRole('button', { name: 'Finish' })).toBeDisabled();
  type('Reason to override', 'Benefit outweighs the risk; ICU monitoring');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/prescription'));
  expect(posts()).toHaveLength(2);
  expect(posts()[1].body).toMatchObject({ overrideReason: 'Benefit outweighs the risk; ICU monitoring' });
});

const allergy = (text: string, reactions: string[], over: object = {}) => ({
  patientId: PATIENT_ID,
  substance: { text },
  type: 'allergy',
  category: 'medication',
  criticality: 'high',
  reactions: reactions.map((manifestation) => ({ manifestation })),
  clinicalStatus: 'active',
  verificationStatus: 'unconfirmed',
  source: 'record',
  sourceText: text,
  recordedBy: { role: 'doctor', name: 'Dr. Lee' },
  recordedAt: '2026-11-19T10:00:00.000Z',
  ...over,
});

test("the allergy box starts from the patient's allergies on file (refuted ones left out)", async () => {
  onFile = [
    allergy('Penicillin', ['anaphylaxis']),
    allergy('Latex', []),
    allergy('Sulfa', ['rash'], { verificationStatus: 'refuted', statusReason: 'challenge' }),
  ];
  renderForm();
  await screen.findByRole('heading', { name: 'New prescription for Asha Rao' });
  await waitFor(() =>
    expect(screen.getByLabelText('Allergies (comma-separated)')).toHaveValue('Penicillin (anaphylaxis), Latex'),
  );
});

test('a drug the vocabulary does not know is "not recognised", never silence; a failed check says nothing was checked', async () => {
  uncoded = ['Zorblatrin 10 mg'];
  renderForm();
  await fillRequired('Zorblatrin 10 mg');
  expect(await screen.findByRole('status', { name: 'Not checked' })).toHaveTextContent(
    'Zorblatrin 10 mg not recognised — allergy and interaction checks were not performed for Zorblatrin 10 mg',
  );
  checkStatus = 503;
  type('Drug', 'Zorblatrin 20 mg');
  expect(
    await screen.findByText(/The allergy and interaction check could not run: nothing has been checked/),
  ).toBeInTheDocument();
});

test('how long it runs must be chosen: a number of days, a last day, or long-term', async () => {
  const router = renderForm();
  await screen.findByRole('heading', { name: 'New prescription for Asha Rao' });
  type('Drug', 'Metformin 500 mg');
  type('Dosage', '500 mg');
  type('Route', 'Oral');
  type('Frequency', 'bd');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(screen.getByLabelText('How long')).toHaveAccessibleDescription('Choose how long it runs'));
  type('How long', 'until');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(screen.getByLabelText('Last day')).toHaveAccessibleDescription('Which is the last day?'));
  expect(posts()).toHaveLength(0);
  type('How long', 'long-term');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/prescription'));
  expect(posts()[0].body).toMatchObject({ prescribedDrug: 'Metformin 500 mg', longTerm: true });
  expect(posts()[0].body).not.toHaveProperty('durationDays');
  expect(posts()[0].body).not.toHaveProperty('endDate');
});
