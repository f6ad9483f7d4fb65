import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { configureApi, createQueryClient, useSession } from '@careloop/shared-auth';
import { CODE_REFUSED, preloadPasswordJudge } from '@careloop/shared-ui';
import { startFakeApi } from '../../../test-support/fake-api';
import ForgotPassword from './ForgotPassword';
import Login from './Login';
import ResetPassword from './ResetPassword';

const DOCTOR_ID = '0b3c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a22';
let fake: Awaited<ReturnType<typeof startFakeApi>>;
let resetStatus = 200;
let weakRefusal = false;
const WEAK_REFUSAL = 'This password is too easy to guess. This is a commonly used password. Add more words that are less common.';

// zxcvbn's dictionaries load once, up front, not in the middle of a timed test.
beforeAll(() => preloadPasswordJudge(), 60_000);
beforeAll(async () => {
  fake = await startFakeApi({
    'POST /doctor/login': { status: 200, body: { twoFactorRequired: true, doctorId: DOCTOR_ID } },
    'POST /doctor/verify2FA': (r) =>
      (r.body as { code: string }).code === '123456'
        ? { status: 200, body: { token: 'after-2fa', role: 'doctor' } }
        : { status: 401, body: { error: 'Invalid or expired code' } },
    'POST /patient/auth/exchange': (r) =>
      (r.body as { code: string }).code === 'one-time-code'
        ? { status: 200, body: { token: 'session-from-code', role: 'patient' } }
        : { status: 400, body: { error: 'This sign-in link is invalid or has expired' } },
    'POST /patient/forgot-password': {
      status: 200,
      body: { message: 'If an account exists for this e-mail, a reset link has been sent.' },
    },
    [`POST /doctor/reset-password/${DOCTOR_ID}/tok_abcdefghijklmnopqrstuvwxyz`]: () =>
      resetStatus === 200
        ? { status: 200, body: { message: 'Your password has been reset. You can now log in.' } }
        : {
            status: 400,
            body: { error: weakRefusal ? `password: ${WEAK_REFUSAL}` : 'This reset link is invalid or has expired' },
          },
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  weakRefusal = false;
  localStorage.clear();
  useSession.getState().logout();
});

function renderRoutes(initial: string) {
  const router = createMemoryRouter(
    [
      { path: '/login/patient', element: <Login role="patient" /> },
      { path: '/login/doctor', element: <Login role="doctor" /> },
      { path: '/patient/forgot-password', element: <ForgotPassword role="patient" /> },
      { path: '/doctor/reset-password/:id/:token', element: <ResetPassword role="doctor" /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [initial] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

test('two-factor login: the code field and Verify replace the credentials; a wrong code fails, the right one signs in', async () => {
  const router = renderRoutes('/login/doctor');
  type('Email', 'lee@example.com');
  type('Password', 'a long passphrase');
  fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
  const code = await screen.findByLabelText('6-digit code from your authenticator app');
  expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  fireEvent.change(code, { target: { value: '000000' } });
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  // SPEC §8's banner, then the likely cause: a phone whose clock drifted.
  expect(await screen.findByRole('alert')).toHaveTextContent(
    "Could not authenticate. That code didn't work — check your authenticator's time, or use a recovery code.",
  );
  expect(screen.getByRole('alert')).toHaveTextContent(CODE_REFUSED);
  fireEvent.change(code, { target: { value: '123456' } });
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/doctor/dashboard'));
  expect(fake.requests.filter((r) => r.path === '/doctor/verify2FA').map((r) => r.body)).toEqual([
    { doctorId: DOCTOR_ID, code: '000000' },
    { doctorId: DOCTOR_ID, code: '123456' },
  ]);
  expect(useSession.getState()).toMatchObject({ token: 'after-2fa', role: 'doctor' });
});

test('Google sign-in hands over ?token=<one-time code>&role: it is exchanged for a session and leaves the URL', async () => {
  const router = renderRoutes('/login/patient?token=one-time-code&role=patient');
  await waitFor(() => expect(router.state.location.pathname).toBe('/patient/dashboard'));
  expect(useSession.getState()).toMatchObject({ token: 'session-from-code', role: 'patient' });
  expect(fake.requests.find((r) => r.path === '/patient/auth/exchange')?.body).toEqual({ code: 'one-time-code' });
  expect(router.state.location.search).toBe('');
});

test('a plain bearer token in ?token= is never adopted: nobody is signed in and Google sign-in is said to have failed', async () => {
  const router = renderRoutes('/login/patient?token=a-real-session-token&role=patient');
  expect(await screen.findByRole('alert')).toHaveTextContent('Google sign-in did not complete.');
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(localStorage.getItem('token')).toBeNull();
  expect(router.state.location.search).toBe('?error=google_failed');
});

test('signed in already: the login page asks before switching, and Stay changes nothing', async () => {
  useSession.getState().login('mine', 'patient');
  const router = renderRoutes('/login/patient?token=one-time-code&role=patient');
  expect(await screen.findByRole('dialog', { name: 'Switch account?' })).toBeInTheDocument();
  expect(router.state.location.search).toBe('');
  fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/patient/dashboard'));
  expect(useSession.getState()).toMatchObject({ token: 'mine', role: 'patient' });
  expect(fake.requests.some((r) => r.path === '/patient/auth/exchange')).toBe(false);
});

test('a code for the other role is not exchanged', async () => {
  const router = renderRoutes('/login/patient?token=x&role=doctor');
  expect(await screen.findByRole('heading', { name: 'Patient Sign In' })).toBeInTheDocument();
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(router.state.location.search).toBe('');
  expect(fake.requests).toHaveLength(0);
});

test('the code step names its field, and a person without their phone switches to a recovery code', async () => {
  renderRoutes(`/login/doctor?twoFactorRequired=true&doctorId=${DOCTOR_ID}&role=doctor`);
  const app = await screen.findByLabelText('6-digit code from your authenticator app');
  expect(app).toHaveAttribute('inputmode', 'numeric');
  expect(app).toHaveAttribute('maxlength', '6');
  fireEvent.click(screen.getByRole('button', { name: 'Lost your phone? Use a recovery code' }));
  const recovery = await screen.findByLabelText('Recovery code');
  expect(recovery).toHaveAttribute('maxlength', '13');
  expect(screen.queryByLabelText('6-digit code from your authenticator app')).not.toBeInTheDocument();
  fireEvent.change(recovery, { target: { value: 'ABCDE-FGHJK' } });
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  await waitFor(() =>
    expect(fake.requests.filter((r) => r.path === '/doctor/verify2FA').map((r) => r.body)).toEqual([
      { doctorId: DOCTOR_ID, code: 'ABCDEFGHJK' },
    ]),
  );
  expect(await screen.findByRole('alert')).toHaveTextContent(CODE_REFUSED);
  fireEvent.click(screen.getByRole('button', { name: 'Use the code from your authenticator app' }));
  expect(await screen.findByLabelText('6-digit code from your authenticator app')).toHaveValue('');
});

test('Google sign-in of an account with two-factor on opens the code step', async () => {
  renderRoutes(`/login/doctor?twoFactorRequired=true&doctorId=${DOCTOR_ID}&role=doctor`);
  expect(await screen.findByLabelText('6-digit code from your authenticator app')).toBeInTheDocument();
  expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
});

test('Google sign-in not configured: a clear message on the login page', async () => {
  renderRoutes('/login/patient?error=google_unavailable');
  expect(await screen.findByRole('alert')).toHaveTextContent('Google sign-in is not available right now.');
});

test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'no_such_error'])(
  '?error=%s (not one of the Google sign-in errors) shows the login page without a message',
  async (error) => {
    renderRoutes(`/login/patient?error=${error}`);
    expect(await screen.findByRole('heading', { name: 'Patient Sign In' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
);

test("the patient's Google sign-in link opens the api's Google endpoint", async () => {
  renderRoutes('/login/patient');
  expect(await screen.findByRole('link', { name: 'Continue with Google' })).toHaveAttribute(
    'href',
    `${fake.url}/patient/auth/google`,
  );
});

test('doctors are not offered Google sign-in', async () => {
  renderRoutes('/login/doctor');
  expect(await screen.findByLabelText('Email')).toBeInTheDocument();
  expect(screen.queryByRole('link', { name: 'Continue with Google' })).not.toBeInTheDocument();
});

test('forgot password shows the answer in green', async () => {
  renderRoutes('/patient/forgot-password');
  type('Email', 'asha@example.com');
  fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
  expect(await screen.findByRole('status')).toHaveTextContent(
    'If an account exists for this e-mail, a reset link has been sent.',
  );
  expect(fake.requests[0].body).toEqual({ email: 'asha@example.com' });
});

test('reset password: success links to sign in; a dead link says "Could not authenticate"', async () => {
  resetStatus = 400;
  renderRoutes(`/doctor/reset-password/${DOCTOR_ID}/tok_abcdefghijklmnopqrstuvwxyz`);
  type('New password', 'a fresh passphrase');
  type('Repeat the new password', 'a fresh passphrase');
  fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Could not authenticate. This reset link is invalid or has expired');
  resetStatus = 200;
  fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
  expect(await screen.findByText('Your password has been reset. You can now log in.')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login/doctor');
  expect(fake.requests.at(-1)!.body).toEqual({ password: 'a fresh passphrase' });
});

test('reset password: two different passwords are not sent', () => {
  renderRoutes(`/doctor/reset-password/${DOCTOR_ID}/tok_abcdefghijklmnopqrstuvwxyz`);
  type('New password', 'a fresh passphrase');
  type('Repeat the new password', 'another one');
  expect(screen.getByText('The two passwords differ.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Set new password' })).toBeDisabled();
});

test("login checks with the api's schema: a malformed e-mail or code is shown beside its field and not sent", async () => {
  renderRoutes('/login/doctor');
  type('Email', 'not-an-email');
  type('Password', 'a long passphrase');
  fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
  await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Invalid e-mail address'));
  expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  expect(fake.requests).toHaveLength(0);
  type('Email', 'lee@example.com');
  fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
  const code = await screen.findByLabelText('6-digit code from your authenticator app');
  fireEvent.change(code, { target: { value: '12345' } });
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  await waitFor(() => expect(code).toHaveAccessibleDescription('The code is 6 digits'));
  expect(fake.requests.filter((r) => r.path === '/doctor/verify2FA')).toHaveLength(0);
});

test('reset password: zxcvbn feedback shows under the field as it is typed; the api refusal is shown there too', async () => {
  resetStatus = 400;
  weakRefusal = true;
  renderRoutes(`/doctor/reset-password/${DOCTOR_ID}/tok_abcdefghijklmnopqrstuvwxyz`);
  type('New password', 'password1');
  // The dictionaries arrive through import() on the first keystroke.
  expect(await screen.findByText('This is a commonly used password.', {}, { timeout: 20_000 })).toBeInTheDocument();
  expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(/^This password is too easy to guess\./);
  type('Repeat the new password', 'password1');
  fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
  // No composition or list check in the browser: the api is the judge, and SPEC §8's banner stays.
  expect(await screen.findByRole('alert')).toHaveTextContent('Could not authenticate');
  expect(fake.requests.at(-1)!.body).toEqual({ password: 'password1' });
  expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true');
  expect(screen.getByText(WEAK_REFUSAL)).toBeInTheDocument();
}, 30_000);
