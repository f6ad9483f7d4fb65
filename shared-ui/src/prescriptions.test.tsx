import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Prescription, Role } from 'shared-contracts';
import { configureApi, createQueryClient, useSession } from 'shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { doctorMe } from '../../test-support/fixtures';
import { PrescriptionList } from './Prescriptions';

const base = {
  dosage: '1 g',
  administrationRoute: 'Oral',
  dosageFrequency: 'Three times a day',
  allergies: [],
  assignedBy: 'Dr. Lee',
  createdAt: '2026-11-20T10:00:00.000Z',
  status: 'active' as const,
  endsOn: '2026-11-26',
  longTerm: false,
  stopped: null,
  override: null,
  uncoded: [],
};
const items: Prescription[] = [
  {
    ...base,
    _id: '1a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a01',
    prescribedDrug: 'Amoxicillin',
    patientId: '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11',
    patientName: 'Asha Rao',
  },
  {
    ...base,
    _id: '1a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a02',
    prescribedDrug: 'Metformin',
    patientId: '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a12',
    patientName: 'Ben Okafor',
  },
];

let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'GET /prescription': { status: 200, body: { items, page: 1, limit: 10, total: 2 } },
    // Asha is still assigned (identity known); Ben no longer is (his name alone remains).
    'GET /doctor/me': {
      status: 200,
      body: doctorMe({
        assignedPatients: [{ patient: items[0].patientId, name: 'Asha Rao', DOB: '1980-03-12', email: 'asha@example.com' }],
      }),
    },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());

function renderAs(role: Role) {
  useSession.getState().login('t', role);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PrescriptionList role={role} />
    </QueryClientProvider>,
  );
}

test("a doctor's list and detail say which patient each prescription is for", async () => {
  renderAs('doctor');
  const list = await screen.findByRole('list', { name: 'Prescriptions' });
  const rows = within(list).getAllByRole('button');
  expect(rows[0]).toHaveTextContent('for Asha Rao');
  expect(rows[1]).toHaveTextContent('for Ben Okafor');
  // told apart from any namesake by date of birth and e-mail, once the doctor's profile is in
  expect(await within(rows[0]).findByText(/Asha Rao · born 12 Mar 1980 \(\d+\) · asha@example\.com/)).toBeInTheDocument();
  const detail = screen.getByRole('region', { name: 'Prescription' });
  expect(within(detail).getByText('Patient')).toBeInTheDocument();
  expect(within(detail).getByText('Asha Rao')).toBeInTheDocument();
  expect(within(detail).getByText(/Born 12 Mar 1980/)).toHaveTextContent('asha@example.com');
  fireEvent.click(rows[1]);
  expect(within(screen.getByRole('region', { name: 'Prescription' })).getByText('Ben Okafor')).toBeInTheDocument();
});

test("a patient's own list shows the prescribing doctor, not a patient line", async () => {
  renderAs('patient');
  const list = await screen.findByRole('list', { name: 'Prescriptions' });
  expect(within(list).getAllByRole('button')[0]).toHaveTextContent('by Dr. Lee');
  expect(list).not.toHaveTextContent('Asha Rao');
  const detail = screen.getByRole('region', { name: 'Prescription' });
  expect(within(detail).queryByText('Patient')).not.toBeInTheDocument();
  expect(within(detail).getByText('Dr. Lee')).toBeInTheDocument();
});

test('an empty allergy list never reads as no known allergies', async () => {
  renderAs('patient');
  const detail = await screen.findByRole('region', { name: 'Prescription' });
  expect(within(detail).getByText('None listed on this prescription')).toBeInTheDocument();
  expect(detail).not.toHaveTextContent(/None recorded|No known/i);
});
