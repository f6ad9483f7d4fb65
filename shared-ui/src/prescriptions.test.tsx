import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Prescription, Role } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { doctorMe, prescription } from '../../test-support/fixtures';
import { PrescriptionList } from './Prescriptions';

const base = prescription({ dosage: '1 g' });
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
  {
    ...base,
    _id: '1a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a03',
    prescribedDrug: 'Co-amoxiclav 625 mg',
    patientId: '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11',
    patientName: 'Asha Rao',
    override: {
      reason: 'Supervised challenge tolerated in 2024',
      by: 'Dr. Lee',
      at: '2026-11-20T10:00:00.000Z',
      alerts: [
        {
          kind: 'allergy',
          severity: 'stop',
          substance: 'Penicillin',
          matchedText: 'Co-amoxiclav',
          message:
            'Co-amoxiclav contains amoxicillin, a penicillin; the patient has an unconfirmed penicillin allergy with anaphylaxis.',
          source: 'test',
        },
      ],
    },
  },
  {
    ...base,
    _id: '1a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a04',
    prescribedDrug: 'Zorblatrin 10 mg',
    patientId: '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11',
    patientName: 'Asha Rao',
    status: 'stopped' as const,
    endsOn: null,
    longTerm: true,
    stopped: { at: '2026-11-22T09:00:00.000Z', by: 'Dr. Lee', reason: 'Rash' },
    uncoded: ['Zorblatrin 10 mg'],
  },
];

let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'GET /prescription': () => ({ status: 200, body: { items, page: 1, limit: 10, total: items.length } }),
    [`POST /prescription/${items[0]._id}/stop`]: (req) => ({
      status: 200,
      body: {
        ...items[0],
        status: 'stopped',
        stopped: { at: '2026-11-27T09:00:00.000Z', by: 'Dr. Lee', reason: (req.body as { reason: string }).reason },
      },
    }),
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

const pick = async (drug: string) => {
  const list = await screen.findByRole('list', { name: 'Prescriptions' });
  fireEvent.click(within(list).getByRole('button', { name: new RegExp(drug) }));
  return screen.getByRole('region', { name: 'Prescription' });
};

test.each<Role>(['doctor', 'patient'])(
  'the %s sees the overridden stop alert on the prescription: who, when, why',
  async (role) => {
    renderAs(role);
    const list = await screen.findByRole('list', { name: 'Prescriptions' });
    expect(within(list).getByRole('button', { name: /Co-amoxiclav/ })).toHaveTextContent('alert overridden');
    const detail = await pick('Co-amoxiclav');
    const override = within(detail).getByRole('region', { name: 'Overridden alerts' });
    expect(override).toHaveTextContent('Prescribed despite a stop alert — by Dr. Lee on 20 Nov 2026');
    expect(override).toHaveTextContent('Reason: Supervised challenge tolerated in 2024');
    expect(override).toHaveTextContent(/Stop: Co-amoxiclav contains amoxicillin, a penicillin/);
  },
);

test('a drug the check did not recognise says so, in the list and the detail; a stopped one says when, who and why', async () => {
  renderAs('patient');
  const list = await screen.findByRole('list', { name: 'Prescriptions' });
  expect(within(list).getByRole('button', { name: /Zorblatrin/ })).toHaveTextContent(/Stopped · not checked/);
  const detail = await pick('Zorblatrin');
  expect(within(detail).getByRole('status', { name: 'Not checked' })).toHaveTextContent(
    'Zorblatrin 10 mg not recognised — allergy and interaction checks were not performed for Zorblatrin 10 mg',
  );
  expect(detail).toHaveTextContent('Stopped 22 Nov 2026 by Dr. Lee: Rash');
  expect(within(detail).queryByRole('button', { name: 'Stop prescription' })).not.toBeInTheDocument();
  expect(within(await pick('Amoxicillin')).queryByRole('button', { name: 'Stop prescription' })).not.toBeInTheDocument();
});

test('the doctor stops an active prescription, giving the reason; the patient cannot', async () => {
  renderAs('doctor');
  const detail = await pick('Amoxicillin');
  expect(detail).toHaveTextContent('Active · until 26 Nov 2026');
  fireEvent.click(within(detail).getByRole('button', { name: 'Stop prescription' }));
  const form = within(screen.getByRole('form', { name: 'Stop prescription' }));
  expect(form.getByRole('button', { name: 'Stop it' })).toBeDisabled();
  fireEvent.change(form.getByLabelText('Why is it stopped?'), { target: { value: 'Rash on day 2' } });
  fireEvent.click(form.getByRole('button', { name: 'Stop it' }));
  await waitFor(() => expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1));
  expect(fake.requests.find((r) => r.method === 'POST')?.body).toEqual({ reason: 'Rash on day 2' });
  // the list is read again
  await waitFor(() => expect(fake.requests.filter((r) => r.path.startsWith('/prescription?')).length).toBeGreaterThanOrEqual(2));
});
