import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import {
  MedicalRecordCreate,
  localDateTimeHere,
  recordFields,
  recordSteps,
  type MedicalRecord,
} from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../../test-support/fake-api';
import { assessment } from '../../../test-support/fixtures';
import CreateRecord from './CreateRecord';

const patientId = '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11';
const failingPatientId = '7f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a12';
const recordId = '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44';
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
  assignedPatients: [
    { patient: patientId, name: 'Asha Rao', DOB: '1980-03-12', email: 'asha@example.com' },
    { patient: failingPatientId, name: 'Ravi Rao', DOB: null, email: 'ravi@example.com' },
  ],
};
// what the api answers a create with: the stored record (call() checks replies against the contract in tests)
const created: MedicalRecord = {
  _id: recordId,
  patient: patientId,
  title: 'Chest pain',
  summary: null,
  summaryInfo: null,
  assessment: assessment(),
  biodata: {
    name: 'Asha Rao',
    email: 'asha@example.com',
    gender: 'Female',
    age: null,
    occupation: '',
    modeOfAdmission: 'Emergency',
    dateOfAdmission: '2026-11-20',
    maritalStatus: '',
    address: { street: '', city: '', state: '', pinCode: '' },
  },
  doctorInfo: { doctorName: 'Dr. Lee', doctorEmail: 'lee@example.com' },
  historyOfPresentingComplaints: 'Central chest pain for 2 hours',
  historyOfPresentingIllness: '',
  pastSurgicalHistory: '',
  pastMedicalHistory: '',
  familyHistory: '',
  drugHistory: '',
  allergies: '',
  gynecologicalHistory: '',
  occupationalHistory: '',
  travelHistory: '',
  socioeconomicHistory: '',
  systemicHistory: {},
  examination: {
    generalPhysicalExamination: {
      bloodPressure: '',
      pulse: 112,
      temperature: '',
      respiratoryRate: null,
      bloodSugarLevel: '',
      Notes: '',
    },
    respiratorySystem: '',
    centralNervousSystem: '',
    cardiovascularSystem: '',
    gastrointestinalSystem: '',
  },
  investigations: {},
  treatment: { prescribedDrug: 'Aspirin', dosage: '', administrationRoute: '', dosageFrequency: '' },
  createdAt: '2026-11-20T10:00:00.000Z',
};
const STOP = {
  kind: 'allergy',
  severity: 'stop',
  substance: 'Penicillin',
  matchedText: 'Amoxicillin',
  message: 'Amoxicillin is a penicillin; the patient has a penicillin allergy with anaphylaxis.',
  source: 'test',
} as const;
let fake: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  fake = await startFakeApi({
    'GET /doctor/me': { status: 200, body: { doctor, profileUrl: null } },
    [`POST /medicalhistory/${patientId}`]: { status: 201, body: { record: created, alerts: [], assessment: created.assessment } },
    // the check finds a stop for any amoxicillin; nothing otherwise
    [`GET /drug-alerts/${patientId}`]: (req) => ({
      status: 200,
      body: {
        alerts: /amox/i.test(req.path) ? [STOP] : [],
        allergies: ['Penicillin'],
        activeMedications: [],
        uncoded: [],
        omitted: 0,
      },
    }),
    [`POST /medicalhistory/${failingPatientId}`]: { status: 500, body: { error: 'Internal server error' } },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  useSession.getState().login('doc-token', 'doctor');
});

function renderForm(id = patientId) {
  const router = createMemoryRouter(
    [
      { path: '/medical-record/create/:id', element: <CreateRecord /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [`/medical-record/create/${id}`] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const stepHeading = () => screen.getByRole('form', { name: 'New medical record' }).querySelector('h2')?.textContent;
const next = async (expected: string) => {
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  await waitFor(() => expect(stepHeading()).toBe(expected));
};

async function fillFirstStep() {
  // the first fetch of the patient can be slow on a loaded machine
  await screen.findByRole('heading', { name: 'New medical record for Asha Rao' }, { timeout: 10_000 });
  type('Title', 'Chest pain');
  fireEvent.change(screen.getByLabelText('Mode of admission'), { target: { value: 'Emergency' } });
}

test('the eight steps and their fields come from the record descriptor, each field once', async () => {
  renderForm();
  await fillFirstStep();
  const seen: string[] = [];
  for (const [i, step] of recordSteps.entries()) {
    expect(stepHeading()).toBe(step.title);
    const form = screen.getByRole('form', { name: 'New medical record' });
    // the controls on screen are exactly this step's fields, in the descriptor's order
    // (a vital's "Confirm …" tick, shown only beside an implausible value, is no field)
    const controls = [...form.querySelectorAll('input:not([type=checkbox]), textarea, select')];
    expect(controls).toHaveLength(step.fields.length);
    step.fields.forEach((f, k) => expect(within(form).getByLabelText(f.label)).toBe(controls[k]));
    seen.push(...step.fields.map((f) => f.name));
    if (i < recordSteps.length - 1) await next(recordSteps[i + 1].title);
  }
  expect(recordSteps.map((s) => s.title)).toEqual([
    'Record',
    'Presenting complaint',
    'Systemic history',
    'Past history',
    'Personal history',
    'General physical examination',
    'System examination',
    'Investigations and treatment',
  ]);
  expect(seen).toEqual(recordFields.map((f) => f.name));
  expect(screen.getByRole('button', { name: 'Finish' })).toBeInTheDocument();
  // eight steps of label queries: slow on a loaded machine
}, 30_000);

const toExamination = async () => {
  await fillFirstStep();
  for (const title of recordSteps.slice(1, 6).map((s) => s.title)) await next(title);
};

const gpeSent = () => (fake.requests.find((r) => r.method === 'POST')?.body as any).examination.generalPhysicalExamination;
const finishFromExamination = async () => {
  await next('System examination');
  await next('Investigations and treatment');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(fake.requests.some((r) => r.method === 'POST')).toBe(true));
};

test('the vitals step opens empty: no number, no tick, nothing chosen but the SpO2 scale; the api limits 20–300', async () => {
  renderForm();
  await toExamination();
  for (const label of ['Pulse', 'Respiratory rate', 'SpO2']) expect(screen.getByLabelText(label)).toHaveValue(null);
  for (const label of ['Blood pressure', 'Temperature', 'Observation time', 'Blood sugar level'])
    expect(screen.getByLabelText(label)).toHaveValue('');
  for (const label of ['Air or oxygen', 'Consciousness']) expect(screen.getByLabelText(label)).toHaveValue('');
  // the chart the SpO2 is scored on (RCP 2017: scale 1 unless decided otherwise), no reading
  expect(screen.getByLabelText('SpO2 scale')).toHaveValue('1');
  expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  expect(screen.getByLabelText('Pulse')).toHaveAttribute('min', '20');
  expect(screen.getByLabelText('Pulse')).toHaveAttribute('max', '300');
  expect(screen.getByLabelText('Observation time')).toHaveAttribute(
    'max',
    expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/),
  );
  expect(screen.getByLabelText('Blood pressure')).toHaveAttribute('placeholder', '120/80');
  expect(screen.getByText(/Scale 2 only for confirmed hypercapnic respiratory failure/)).toBeInTheDocument();
});

test('plausible values ask nothing: a pulse of 72, a rate of 12, 36.8 °C, 118/76 go on with Next', async () => {
  renderForm();
  await toExamination();
  type('Pulse', '72');
  type('Respiratory rate', '12');
  type('Temperature', '36.8');
  type('Blood pressure', '118/76');
  expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  await finishFromExamination();
  expect(screen.queryByText(/plausible range/)).not.toBeInTheDocument();
  expect(gpeSent()).toMatchObject({ pulse: 72, respiratoryRate: 12, temperature: '36.8', bloodPressure: '118/76' });
});

test('a pulse of 25 asks for confirmation and is recorded once ticked; so do a rate of 4, 93 °F and a systolic of 55', async () => {
  renderForm();
  await toExamination();
  type('Pulse', '25');
  type('Respiratory rate', '4');
  type('Temperature', '93 °F');
  type('Blood pressure', '55/40');
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  expect(
    await screen.findByText(
      'Pulse 25 /min is outside the plausible range (30–200 /min): check it, then tick “Confirm pulse of 25 /min” to record it',
    ),
  ).toBeInTheDocument();
  expect(screen.getByText(/Respiratory rate 4 \/min is outside the plausible range \(6–50 \/min\)/)).toBeInTheDocument();
  expect(screen.getByText(/Temperature 93 °F \(33.9 °C\) is outside the plausible range \(34–42 °C\)/)).toBeInTheDocument();
  expect(
    screen.getByText(/Blood pressure 55\/40 mmHg is outside the plausible range \(systolic 60–250 mmHg\)/),
  ).toBeInTheDocument();
  expect(stepHeading()).toBe('General physical examination');
  fireEvent.click(screen.getByLabelText('Confirm pulse of 25 /min'));
  fireEvent.click(screen.getByLabelText('Confirm respiratory rate of 4 /min'));
  fireEvent.click(screen.getByLabelText('Confirm temperature of 93 °F (33.9 °C)'));
  fireEvent.click(screen.getByLabelText('Confirm blood pressure of 55/40 mmHg'));
  await finishFromExamination();
  expect(gpeSent()).toMatchObject({ pulse: 25, respiratoryRate: 4, temperature: '93 °F', bloodPressure: '55/40' });
  expect(fake.requests.find((r) => r.method === 'POST')?.body).not.toHaveProperty('vitalsCheck');
});

test('a confirmation is of one value: changing the value clears the tick', async () => {
  renderForm();
  await toExamination();
  type('Pulse', '25');
  fireEvent.click(screen.getByLabelText('Confirm pulse of 25 /min'));
  expect(screen.getByLabelText('Confirm pulse of 25 /min')).toBeChecked();
  type('Pulse', '250');
  await waitFor(() => expect(screen.getByLabelText('Confirm pulse of 250 /min')).not.toBeChecked());
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  expect(await screen.findByText(/Pulse 250 \/min is outside the plausible range/)).toBeInTheDocument();
  expect(stepHeading()).toBe('General physical examination');
});

test('an observation time in the future is refused; now is fine', async () => {
  renderForm();
  await toExamination();
  type('Observation time', localDateTimeHere(new Date(Date.now() + 60 * 60_000)));
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  expect(await screen.findByText('Observation time cannot be in the future')).toBeInTheDocument();
  expect(stepHeading()).toBe('General physical examination');
  const now = localDateTimeHere(new Date());
  type('Observation time', now);
  await finishFromExamination();
  expect(gpeSent()).toMatchObject({ observedAt: now });
});

test('a bare glucose number is refused', async () => {
  renderForm();
  await toExamination();
  type('Blood sugar level', '5.4');
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  expect(
    await screen.findByText('Blood sugar level needs its unit: mmol/L or mg/dL (e.g. 5.4 mmol/L or 97 mg/dL)'),
  ).toBeInTheDocument();
  type('Blood sugar level', '5.4 mmol/L');
  await finishFromExamination();
  expect(gpeSent()).toMatchObject({ bloodSugarLevel: '5.4 mmol/L' });
});

test("a field's error shows beside it on its own step, and Next waits until it is fixed", async () => {
  renderForm();
  await fillFirstStep();
  type('Title', '   '); // passes the browser's "required", not the contract (trimmed, then empty)
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Title is required');
  expect(stepHeading()).toBe('Record');
  type('Title', 'Chest pain');
  await next('Presenting complaint');
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('Finish posts the record in the contract shape, every untouched vital as not measured, and opens it', async () => {
  const router = renderForm();
  await fillFirstStep();
  await next('Presenting complaint');
  type('History of presenting complaints', 'Central chest pain for 2 hours');
  for (const title of recordSteps.slice(2, 6).map((s) => s.title)) await next(title);
  type('Pulse', '112');
  await next('System examination');
  await next('Investigations and treatment');
  type('Prescribed drug', 'Aspirin');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(router.state.location.pathname).toBe(`/all-medical-records/${recordId}`));
  const post = fake.requests.find((r) => r.method === 'POST');
  const expected = MedicalRecordCreate.parse({
    medicalHistory: {
      title: 'Chest pain',
      biodata: { modeOfAdmission: 'Emergency' },
      systemicHistory: {},
      historyOfPresentingComplaints: 'Central chest pain for 2 hours',
    },
    examination: { generalPhysicalExamination: { pulse: 112 } },
    investigations: {},
    treatment: { prescribedDrug: 'Aspirin' },
  });
  expect(post?.body).toEqual(expected);
  expect(expected.examination.generalPhysicalExamination).toEqual({
    bloodPressure: '',
    pulse: 112,
    temperature: '',
    respiratoryRate: null,
    oxygenSaturation: null,
    spo2Scale: 1,
    supplementalOxygen: null,
    consciousness: null,
    observedAt: '',
    bloodSugarLevel: '',
    weight: null,
    height: null,
    Notes: '',
  });
});

test('a stop alert for the treatment shows on the last step; Finish waits for the reason, which is sent', async () => {
  const router = renderForm();
  await fillFirstStep();
  await next('Presenting complaint');
  type('History of presenting complaints', 'Sore throat');
  for (const title of recordSteps.slice(2).map((s) => s.title)) await next(title);
  type('Prescribed drug', 'Amoxicillin 500 mg');
  expect(await screen.findByRole('alert', { name: 'Stop alerts' })).toHaveTextContent('Stop: Amoxicillin is a penicillin');
  const finish = screen.getByRole('button', { name: 'Finish' });
  expect(finish).toBeDisabled();
  fireEvent.click(finish);
  expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  type('Reason to override', 'Allergy test negative last month');
  expect(finish).toBeEnabled();
  fireEvent.click(finish);
  await waitFor(() => expect(router.state.location.pathname).toBe(`/all-medical-records/${recordId}`));
  const post = fake.requests.find((r) => r.method === 'POST');
  expect(post?.body).toMatchObject({
    treatment: { prescribedDrug: 'Amoxicillin 500 mg' },
    overrideReason: 'Allergy test negative last month',
  });
});

test('a failed create says so on the last step', async () => {
  renderForm(failingPatientId);
  await screen.findByRole('heading', { name: 'New medical record for Ravi Rao' });
  type('Title', 'Chest pain');
  fireEvent.change(screen.getByLabelText('Mode of admission'), { target: { value: 'Outpatient' } });
  for (const title of recordSteps.slice(1).map((s) => s.title)) await next(title);
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  expect(await screen.findByText('Could not create record. Try again?')).toBeInTheDocument();
  expect(stepHeading()).toBe('Investigations and treatment');
});

test('a patient not assigned to the doctor: "No assigned patients found"', async () => {
  renderForm('9f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a99');
  expect(await screen.findByText('No assigned patients found')).toBeInTheDocument();
});
