import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { recordSteps, type MedicalRecord } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { RecordDetail } from '@careloop/shared-ui';
import { startFakeApi } from '../../../test-support/fake-api';
import { assessment } from '../../../test-support/fixtures';
import CreateRecord from './CreateRecord';

/*
 * A vital sign is declared in one place: shared-contracts VITAL_SIGNS. Here the list gets one more
 * entry — head circumference — and nothing else changes: the record form asks for it on the examination
 * step (its limits, its plausible range) and sends it, and the record's detail view shows it.
 * (The api, the summary, FHIR and the PDF: api/src/modules/records/vital-sign-declaration.test.ts.)
 */
jest.mock('../../../shared-contracts/src/vital-sign-list', () => {
  const actual = jest.requireActual('../../../shared-contracts/src/vital-sign-list');
  return {
    ...actual,
    VITAL_SIGNS: [
      ...actual.VITAL_SIGNS,
      {
        key: 'headCircumference',
        label: 'Head circumference',
        kind: 'number',
        units: ['cm'],
        limits: [10, 80],
        plausible: [25, 65],
        loinc: [{ code: '9843-4', display: 'Head Occipital-frontal circumference' }],
        fhir: { profile: 'headcircum' },
      },
    ],
  };
});

const patientId = '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11';
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
  assignedPatients: [{ patient: patientId, name: 'Asha Rao', DOB: '1980-03-12', email: 'asha@example.com' }],
};
/** A stored record with a head circumference of 35.5 cm (or none). */
const stored = (headCircumference: number | null) =>
  ({
    _id: '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44',
    patient: patientId,
    title: 'Review',
    summary: null,
    summaryInfo: null,
    assessment: assessment(),
    biodata: {
      name: 'Asha Rao',
      email: 'asha@example.com',
      gender: 'Female',
      age: null,
      occupation: '',
      modeOfAdmission: 'Outpatient',
      dateOfAdmission: '2026-11-20',
      maritalStatus: '',
      address: { street: '', city: '', state: '', pinCode: '' },
    },
    doctorInfo: { doctorName: 'Dr. Lee', doctorEmail: 'lee@example.com' },
    historyOfPresentingComplaints: '',
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
        pulse: 80,
        temperature: '',
        bloodSugarLevel: '',
        Notes: '',
        headCircumference,
      },
      respiratorySystem: '',
      centralNervousSystem: '',
      cardiovascularSystem: '',
      gastrointestinalSystem: '',
    },
    investigations: {},
    treatment: { prescribedDrug: '', dosage: '', administrationRoute: '', dosageFrequency: '' },
    createdAt: '2026-11-20T10:00:00.000Z',
  }) as MedicalRecord;

let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  const created = stored(35.5);
  fake = await startFakeApi({
    'GET /doctor/me': { status: 200, body: { doctor, profileUrl: null } },
    [`POST /medicalhistory/${patientId}`]: { status: 201, body: { record: created, alerts: [], assessment: created.assessment } },
    [`GET /drug-alerts/${patientId}`]: {
      status: 200,
      body: { alerts: [], allergies: [], activeMedications: [], uncoded: [], omitted: 0 },
    },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  useSession.getState().login('doc-token', 'doctor');
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const stepHeading = () => screen.getByRole('form', { name: 'New medical record' }).querySelector('h2')?.textContent;
const next = async (expected: string) => {
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  await waitFor(() => expect(stepHeading()).toBe(expected));
};

test('the record form asks for it on the examination step, within its limits, and sends it', async () => {
  const router = createMemoryRouter(
    [
      { path: '/medical-record/create/:id', element: <CreateRecord /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [`/medical-record/create/${patientId}`] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  await screen.findByRole('heading', { name: 'New medical record for Asha Rao' }, { timeout: 10_000 });
  type('Title', 'Review');
  fireEvent.change(screen.getByLabelText('Mode of admission'), { target: { value: 'Outpatient' } });
  for (const title of recordSteps.slice(1, 6).map((s) => s.title)) await next(title);

  // after the declared vital signs before it, before the observation time
  const form = screen.getByRole('form', { name: 'New medical record' });
  const labels = [...form.querySelectorAll('label')].map((l) => l.textContent);
  expect(labels.indexOf('Head circumference')).toBe(labels.indexOf('Height') + 1);
  expect(labels.indexOf('Observation time')).toBe(labels.indexOf('Head circumference') + 1);
  expect(screen.getByLabelText('Head circumference')).toHaveAttribute('min', '10');
  expect(screen.getByLabelText('Head circumference')).toHaveAttribute('max', '80');

  // outside its plausible range: confirmed, as any vital sign is
  type('Head circumference', '70');
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  expect(await screen.findByText(/Head circumference 70 cm is outside the plausible range \(25–65 cm\)/)).toBeInTheDocument();
  type('Head circumference', '35.5');
  await next('System examination');
  await next('Investigations and treatment');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(fake.requests.some((r) => r.method === 'POST')).toBe(true));
  const sent = fake.requests.find((r) => r.method === 'POST')!.body as MedicalRecord;
  expect(sent.examination.generalPhysicalExamination).toMatchObject({ pulse: null, headCircumference: 35.5 });
}, 30_000);

test("the record's detail view shows it in the examination, under its label, in its unit, or not measured", () => {
  const renderDetail = (record: MedicalRecord) =>
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <RecordDetail role="patient" record={record} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  const { unmount } = renderDetail(stored(35.5));
  let examination = within(screen.getByRole('region', { name: 'Examination' }));
  expect(examination.getByText('Head circumference').nextSibling).toHaveTextContent(/^35.5 cm$/);
  unmount();
  renderDetail(stored(null));
  examination = within(screen.getByRole('region', { name: 'Examination' }));
  expect(examination.getByText('Head circumference').nextSibling).toHaveTextContent(/^not measured$/);
});
