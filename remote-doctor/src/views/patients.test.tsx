import { render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../../test-support/fake-api';
import { doctorMe } from '../../../test-support/fixtures';
import Dashboard from './Dashboard';
import PickPrescriptionPatient from './PickPrescriptionPatient';
import PickRecordPatient from './PickRecordPatient';
import Records from './Records';

const ASHA = '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11';
const OTHER_ASHA = '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a12';
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'GET /doctor/me': {
      status: 200,
      // Two patients may share a name: everything is keyed and linked by id.
      body: doctorMe({
        assignedPatients: [
          { patient: ASHA, name: 'Asha Rao', DOB: '1980-03-12', email: 'asha@example.com' },
          { patient: OTHER_ASHA, name: 'Asha Rao', DOB: '1991-11-02', email: 'asha.rao@example.org' },
        ],
      }),
    },
    'GET /medicalhistories': { status: 200, body: { items: [], page: 1, limit: 10, total: 0 } },
    'GET /doctor/worklist': {
      status: 200,
      body: {
        items: [
          {
            patient: ASHA,
            name: 'Asha Rao',
            DOB: '1980-03-12',
            email: 'asha@example.com',
            acuity: 'review',
            reasons: ['No vital signs recorded'],
            latest: null,
            change: null,
            lastRecordAt: null,
            lastVitalsAt: null,
          },
          {
            patient: OTHER_ASHA,
            name: 'Asha Rao',
            DOB: '1991-11-02',
            email: 'asha.rao@example.org',
            acuity: 'review',
            reasons: ['No vital signs recorded'],
            latest: null,
            change: null,
            lastRecordAt: null,
            lastVitalsAt: null,
          },
        ],
      },
    },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  useSession.getState().login('t', 'doctor');
});

function renderAt(path: string, element: React.ReactNode) {
  const router = createMemoryRouter([{ path: path.split('?')[0], element }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

test("the dashboard's assigned patients link to that patient's records, by id, told apart by birth date and e-mail", async () => {
  renderAt('/doctor/dashboard', <Dashboard />);
  const card = screen.getByLabelText('Assigned patients');
  const links = await within(card).findAllByRole('link', { name: /^Asha Rao/ });
  expect(links.map((a) => a.getAttribute('href'))).toEqual([
    `/doctor/all-medical-records?patientId=${ASHA}`,
    `/doctor/all-medical-records?patientId=${OTHER_ASHA}`,
  ]);
  expect(links[0]).toHaveTextContent(/Born 12 Mar 1980 \(\d+\) · asha@example\.com/);
  expect(links[1]).toHaveTextContent(/Born 2 Nov 1991 \(\d+\) · asha\.rao@example\.org/);
  // Release stays a separate button beside each link, named for the one patient it releases.
  expect(within(card).getByRole('button', { name: /^Release: Asha Rao · born 12 Mar 1980/ })).toBeInTheDocument();
  expect(within(card).getByRole('button', { name: /^Release: Asha Rao · born 2 Nov 1991/ })).toBeInTheDocument();
});

test("the records page asks for only that patient's records when given ?patientId", async () => {
  renderAt(`/doctor/all-medical-records?patientId=${ASHA}`, <Records />);
  expect(await screen.findByText('No medical record found')).toBeInTheDocument();
  const asked = fake.requests.filter((r) => r.path.startsWith('/medicalhistories'));
  expect(asked.map((r) => new URL(r.path, 'http://x').searchParams.get('patientId'))).toEqual([ASHA]);
});

test('without ?patientId the records page asks for all assigned patients', async () => {
  renderAt('/doctor/all-medical-records', <Records />);
  await screen.findByText('No medical record found');
  const asked = fake.requests.filter((r) => r.path.startsWith('/medicalhistories'));
  expect(asked.every((r) => !r.path.includes('patientId'))).toBe(true);
});

test.each([
  ['PickRecordPatient', <PickRecordPatient key="r" />, '/medical-record/create', 'Create a medical record'],
  ['PickPrescriptionPatient', <PickPrescriptionPatient key="p" />, '/create-prescription', 'Write a prescription'],
])('%s shows each patient as a row with the name and what choosing does, linked by id', async (_n, view, base, action) => {
  renderAt(base, view);
  const list = await screen.findByRole('list', { name: 'Assigned patients' });
  const rows = within(list).getAllByRole('link');
  expect(rows.map((a) => a.getAttribute('href'))).toEqual([`${base}/${ASHA}`, `${base}/${OTHER_ASHA}`]);
  for (const row of rows) {
    expect(within(row).getByText('Asha Rao').tagName).toBe('STRONG');
    expect(row).toHaveTextContent(action);
  }
  // Same name, told apart by date of birth and e-mail.
  expect(rows[0]).toHaveTextContent('Born 12 Mar 1980');
  expect(rows[0]).toHaveTextContent('asha@example.com');
  expect(rows[1]).toHaveTextContent('Born 2 Nov 1991');
  expect(rows[1]).toHaveTextContent('asha.rao@example.org');
});

test('a doctor with no assigned patients sees "No assigned patients found" in the picker', async () => {
  const empty = await startFakeApi({ 'GET /doctor/me': { status: 200, body: doctorMe() } });
  configureApi(empty.url);
  try {
    renderAt('/create-prescription', <PickPrescriptionPatient />);
    await waitFor(() => expect(screen.getByText('No assigned patients found')).toBeInTheDocument());
    expect(screen.queryByRole('list', { name: 'Assigned patients' })).toBeNull();
  } finally {
    configureApi(fake.url);
    await empty.close();
  }
});
