import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { configureApi, createQueryClient, useSession } from 'shared-auth';
import { startFakeApi } from '../../../test-support/fake-api';
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
  assignedPatients: [{ patient: PATIENT_ID, name: 'Asha Rao' }],
};
// what the api answers a prescription with (call() checks replies against the contract in tests)
const prescribed = {
  _id: '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a55',
  prescribedDrug: 'Amoxicillin',
  dosage: '500 mg',
  administrationRoute: 'Oral',
  dosageFrequency: 'Three times a day',
  allergies: ['Penicillin', 'latex'],
  assignedBy: 'Dr. Lee',
  patientName: 'Asha Rao',
  patientId: PATIENT_ID,
  createdAt: '2026-11-20T10:00:00.000Z',
  alerts: [],
};
let createStatus = 201;
let fake: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  fake = await startFakeApi({
    'GET /doctor/me': { status: 200, body: { doctor, profileUrl: null } },
    [`GET /drug-alerts/${PATIENT_ID}`]: { status: 200, body: { alerts: [], allergies: [] } },
    [`POST /prescription/${PATIENT_ID}`]: () =>
      createStatus === 201 ? { status: 201, body: prescribed } : { status: createStatus, body: { error: 'no' } },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  createStatus = 201;
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
  type('Allergies (comma-separated)', ' Penicillin, latex ,');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Could not create record. Try again?');
  expect(posts()[0].body).toEqual({
    prescribedDrug: 'Amoxicillin',
    dosage: '500 mg',
    administrationRoute: 'Oral',
    dosageFrequency: 'Three times a day',
    allergies: ['Penicillin', 'latex'],
  });
  createStatus = 201;
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/prescription'));
});
