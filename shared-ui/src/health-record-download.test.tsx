import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { patientMe } from '../../test-support/fixtures';
import { DOWNLOAD_FAILED, HealthRecordDownload } from './HealthRecordDownload';

const me = patientMe();
let pdfStatus = 200;
let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi({
    'GET /patient/me': { status: 200, body: me },
    'GET /patient/health-record.pdf': () => ({
      status: pdfStatus,
      body: pdfStatus === 200 ? '%PDF-1.3' : { error: 'Server error' },
    }),
    // the FHIR API answers an OperationOutcome on failure, not { error }
    [`GET /fhir/R4/Patient/${me.patient._id}/$everything`]: { status: 500, body: { resourceType: 'OperationOutcome' } },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());

const saved: { href: string; download: string }[] = [];
beforeEach(() => {
  useSession.getState().login('patient-token', 'patient');
  saved.length = 0;
  pdfStatus = 200;
  URL.createObjectURL = jest.fn(() => 'blob:health-record');
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download });
  });
});
afterEach(() => jest.restoreAllMocks());

const renderView = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <HealthRecordDownload />
    </QueryClientProvider>,
  );

test('"Download as PDF" fetches the PDF with the session token and saves it under a dated name', async () => {
  renderView();
  fireEvent.click(screen.getByRole('button', { name: 'Download as PDF' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Preparing your health record…');
  await waitFor(() => expect(saved).toHaveLength(1));
  expect(saved[0]).toEqual({
    href: 'blob:health-record',
    download: expect.stringMatching(/^careloop-health-record-\d{4}-\d{2}-\d{2}\.pdf$/),
  });
  const request = fake.requests.find((r) => r.path === '/patient/health-record.pdf');
  expect(request?.headers.authorization).toBe('Bearer patient-token');
  expect(request?.headers.accept).toBe('application/pdf');
  await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:health-record'));
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.getByRole('button', { name: 'Download as PDF' })).toBeEnabled();
});

test('a failed FHIR download says so and saves nothing', async () => {
  renderView();
  fireEvent.click(screen.getByRole('button', { name: 'Download my health record (FHIR)' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(DOWNLOAD_FAILED);
  expect(saved).toHaveLength(0);
  const request = fake.requests.find((r) => r.path.endsWith('/$everything'));
  expect(request?.headers.accept).toBe('application/fhir+json');
  expect(screen.getByRole('button', { name: 'Download my health record (FHIR)' })).toBeEnabled();
});

test('a failed PDF download shows the error, and a retry that works clears it', async () => {
  pdfStatus = 500;
  renderView();
  fireEvent.click(screen.getByRole('button', { name: 'Download as PDF' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(DOWNLOAD_FAILED);
  pdfStatus = 200;
  fireEvent.click(screen.getByRole('button', { name: 'Download as PDF' }));
  await waitFor(() => expect(saved).toHaveLength(1));
  expect(screen.queryByRole('alert')).toBeNull();
});
