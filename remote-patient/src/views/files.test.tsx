import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from '@careloop/shared-router';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../../test-support/fake-api';
import { patientMe } from '../../../test-support/fixtures';
import MedicalFiles from './MedicalFiles';
import UploadFile from './UploadFile';

const PATIENT_ID = '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11';
let fake: Awaited<ReturnType<typeof startFakeApi>>;
let putStatus = 200;
let files = { presignedUrl: [] as string[], fileName: [] as string[], uploadedAt: [] as string[], size: [] as number[] };

beforeAll(async () => {
  fake = await startFakeApi({
    'GET /patient/me': { status: 200, body: patientMe({ _id: PATIENT_ID, name: 'Asha' }) },
    [`GET /medical-record/${PATIENT_ID}`]: (r) => ({
      status: 200,
      body: { uploadUrl: `${fake.url}/files/k?sig=1`, key: 'k', echo: r.path },
    }),
    'PUT /files/k': () => ({ status: putStatus, body: {} }),
    'GET /medical-record': () => ({ status: 200, body: files }),
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  putStatus = 200;
  useSession.getState().login('t', 'patient');
});

const renderView = (view: React.ReactNode) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>{view}</MemoryRouter>
    </QueryClientProvider>,
  );
const choose = (file: File) => fireEvent.change(screen.getByLabelText('PDF file'), { target: { files: [file] } });
const pdf = new File(['%PDF-1.4\n%%EOF\n'], 'scan.pdf', { type: 'application/pdf' });

test('with no file nothing is sent and the page says "Choose a PDF first"; the input accepts PDF only', async () => {
  renderView(<UploadFile />);
  const input = screen.getByLabelText('PDF file');
  expect(input).toHaveAttribute('accept', 'application/pdf,.pdf');
  await waitFor(() => expect(fake.requests.some((r) => r.path === '/patient/me')).toBe(true));
  fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
  // the answer to the click is on screen: only then is "nothing was sent" a finding
  expect(await screen.findByRole('alert')).toHaveTextContent('Choose a PDF first');
  expect(input).toHaveAttribute('aria-invalid', 'true');
  expect(input).toHaveAccessibleDescription('Choose a PDF first');
  expect(fake.requests.filter((r) => r.path.startsWith('/medical-record'))).toHaveLength(0);
  expect(screen.queryByText('Uploading...')).not.toBeInTheDocument();
});

test('a PDF asks for a one-time URL, is PUT there as application/pdf, then "File upload successful"', async () => {
  renderView(<UploadFile />);
  await waitFor(() => expect(fake.requests.some((r) => r.path === '/patient/me')).toBe(true));
  choose(pdf);
  fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
  expect(await screen.findByText('File upload successful')).toBeInTheDocument();
  const ask = fake.requests.find((r) => r.path.startsWith(`/medical-record/${PATIENT_ID}`))!;
  expect(ask.path).toBe(`/medical-record/${PATIENT_ID}?fileType=application%2Fpdf&fileName=scan.pdf`);
  const put = fake.requests.find((r) => r.method === 'PUT')!;
  expect(put.headers['content-type']).toBe('application/pdf');
});

test('a refused upload says "Could not upload your file"; a non-PDF says why', async () => {
  putStatus = 415;
  renderView(<UploadFile />);
  await waitFor(() => expect(fake.requests.some((r) => r.path === '/patient/me')).toBe(true));
  choose(pdf);
  fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
  expect(await screen.findByText('Could not upload your file')).toBeInTheDocument();
  choose(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
  fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
  expect(await screen.findByText('Could not upload your file. Only PDF files can be uploaded.')).toBeInTheDocument();
  expect(fake.requests.filter((r) => r.path.includes('notes.txt'))).toHaveLength(0);
});

test('the file list links each file; an empty one says "No medical files were found"', async () => {
  files = { presignedUrl: [], fileName: [], uploadedAt: [], size: [] };
  const { unmount } = renderView(<MedicalFiles />);
  expect(await screen.findByText('No medical files were found')).toBeInTheDocument();
  unmount();
  files = {
    presignedUrl: ['http://files.example/a?sig=1'],
    fileName: ['Blood test.pdf'],
    uploadedAt: ['2026-11-27T19:30:00.000Z'],
    size: [1_258_291],
  };
  renderView(<MedicalFiles />);
  const link = await screen.findByRole('link', { name: 'Blood test.pdf' });
  expect(link).toHaveAttribute('href', 'http://files.example/a?sig=1');
  // when it was uploaded (one date format) and how big it is
  expect(link.closest('li')).toHaveTextContent(/Uploaded 27 Nov 2026, \d{2}:30 · 1\.2 MB/);
});
