import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { configureApi, createQueryClient, useAccount, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { doctorMe, patientMe } from '../../test-support/fixtures';
import { VerifyEmailBanner, VerifyEmailView } from './EmailVerification';

const TOKEN = 'A'.repeat(43);
let fake: Awaited<ReturnType<typeof startFakeApi>>;
let verified = false;
let verifyReply: { status: number; body: unknown } = {
  status: 200,
  body: { message: 'Your e-mail address is verified. Thank you!' },
};
let resendReply: { status: number; body: unknown } = { status: 200, body: { message: 'A new verification link has been sent.' } };

beforeAll(async () => {
  fake = await startFakeApi({
    'GET /patient/me': () => ({ status: 200, body: patientMe({ email: 'asha@example.com', emailVerified: verified }) }),
    'GET /doctor/me': () => ({ status: 200, body: doctorMe({ emailVerified: verified }) }),
    [`POST /patient/verify-email/${TOKEN}`]: () => {
      if (verifyReply.status === 200) verified = true;
      return verifyReply;
    },
    [`POST /patient/verify-email/${TOKEN}/disown`]: () => ({
      status: 200,
      body: { message: 'The account made with this e-mail address was deleted. Thank you for telling us.' },
    }),
    'POST /patient/verify-email/resend': () => resendReply,
    'POST /doctor/verify-email/resend': () => resendReply,
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  verified = false;
  verifyReply = { status: 200, body: { message: 'Your e-mail address is verified. Thank you!' } };
  resendReply = { status: 200, body: { message: 'A new verification link has been sent.' } };
  localStorage.clear();
});

/** Says when the patient's profile (the query the banner reads) has arrived. */
function ProfileLoaded() {
  return useAccount('patient').data ? <p>profile loaded</p> : null;
}

function renderAt(path: string, pattern: string, element: React.ReactNode) {
  const router = createMemoryRouter(
    [
      { path: pattern, element },
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
const calls = (method: string, path: string) => fake.requests.filter((r) => r.method === method && r.path === path);

describe('verify page', () => {
  test('posts the token with the password only on the button, then shows success and the way to the dashboard', async () => {
    useSession.getState().login('t', 'patient');
    renderAt(`/patient/verify-email/${TOKEN}`, '/patient/verify-email/:token', <VerifyEmailView role="patient" />);
    expect(screen.getByRole('heading', { name: 'Verify your e-mail address' })).toBeInTheDocument();
    expect(calls('POST', `/patient/verify-email/${TOKEN}`)).toHaveLength(0);
    // No password, no request.
    expect(screen.getByRole('button', { name: 'Verify my e-mail address' })).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse battery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify my e-mail address' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your e-mail address is verified. Thank you!');
    expect(calls('POST', `/patient/verify-email/${TOKEN}`)).toHaveLength(1);
    expect(calls('POST', `/patient/verify-email/${TOKEN}`)[0].body).toEqual({ password: 'correct horse battery' });
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/patient/dashboard');
  });

  test("shows the server's error as an alert, and offers sign-in when signed out", async () => {
    useSession.getState().logout();
    verifyReply = { status: 400, body: { error: 'This verification link is invalid, already used or expired' } };
    renderAt(`/patient/verify-email/${TOKEN}`, '/patient/verify-email/:token', <VerifyEmailView role="patient" />);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse battery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify my e-mail address' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This verification link is invalid, already used or expired');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login/patient');
  });

  test('a link already used (410) says so and offers only Sign in: no password form, no disown', async () => {
    useSession.getState().logout();
    const text = 'This verification link was already used: your e-mail address is verified. Sign in to continue.';
    verifyReply = { status: 410, body: { error: text } };
    renderAt(`/patient/verify-email/${TOKEN}`, '/patient/verify-email/:token', <VerifyEmailView role="patient" />);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse battery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify my e-mail address' }));
    expect(await screen.findByRole('status')).toHaveTextContent(text);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link').map((a) => a.textContent)).toEqual(['Sign in']);
  });

  test('"I did not create this account" posts the disown call, without a password, and shows the outcome', async () => {
    useSession.getState().logout();
    renderAt(`/patient/verify-email/${TOKEN}`, '/patient/verify-email/:token', <VerifyEmailView role="patient" />);
    fireEvent.click(screen.getByRole('button', { name: 'I did not create this account' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The account made with this e-mail address was deleted.');
    expect(calls('POST', `/patient/verify-email/${TOKEN}/disown`)).toHaveLength(1);
    expect(calls('POST', `/patient/verify-email/${TOKEN}`)).toHaveLength(0);
  });
});

describe('dashboard banner', () => {
  test.each(['patient', 'doctor'] as const)('a %s with an unverified e-mail sees it; Resend shows the outcome', async (role) => {
    useSession.getState().login('t', role);
    renderAt('/dash', '/dash', <VerifyEmailBanner role={role} />);
    expect(await screen.findByText('Please verify your e-mail address.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Resend the link' }));
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain('A new verification link has been sent.'),
    );
    expect(calls('POST', `/${role}/verify-email/resend`)).toHaveLength(1);

    resendReply = {
      status: 429,
      body: { error: 'A link was sent less than a minute ago. Please wait a minute before asking again.' },
    };
    fireEvent.click(screen.getByRole('button', { name: 'Resend the link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('less than a minute ago');
  });

  test('nothing is shown once the e-mail is verified', async () => {
    verified = true;
    useSession.getState().login('t', 'patient');
    renderAt(
      '/dash',
      '/dash',
      <>
        <VerifyEmailBanner role="patient" />
        <ProfileLoaded />
      </>,
    );
    // the banner's own query has answered and rendered (the probe reads the same one): only now is
    // "no banner" a finding rather than "not yet"
    expect(await screen.findByText('profile loaded')).toBeInTheDocument();
    expect(calls('GET', '/patient/me')).toHaveLength(1);
    expect(screen.queryByText('Please verify your e-mail address.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend the link' })).not.toBeInTheDocument();
  });
});
