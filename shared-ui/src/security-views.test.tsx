import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { CURRENT_PASSWORD_WRONG, TWO_FACTOR_ALREADY_ON, TWO_FACTOR_CODE_WRONG } from '@careloop/shared-contracts';
import { configureApi, createQueryClient, RequireSession, useMfaGate, useSession } from '@careloop/shared-auth';
import { startFakeApi } from '../../test-support/fake-api';
import { patientMe } from '../../test-support/fixtures';
import { COMPLETE_PROFILE_GENDERS, CompleteProfileForm, DoctorCompleteProfileForm } from './CompleteProfileForm';
import { FormSelectField } from './fields';
import { useSchemaForm } from './formSchemas';
import { TwoFactorSettings } from './TwoFactorSettings';

let fake: Awaited<ReturnType<typeof startFakeApi>>;
let twoFactorOn = false;
let verifyReply: { status: number; body?: unknown } = { status: 200, body: { verify: true } };
/** When each verifyqrCode request arrived (the debounce's own clock, not a sleep, proves "not before"). */
const verifiedAt: number[] = [];
let completeReply: { status: number; body?: unknown } = { status: 200, body: { token: 'done', role: 'doctor' } };

beforeAll(async () => {
  fake = await startFakeApi({
    'GET /patient/me': () => ({ status: 200, body: patientMe({ name: 'A', twoFactorEnabled: twoFactorOn }) }),
    'GET /patient/qrCode': () =>
      twoFactorOn
        ? { status: 409, body: { error: TWO_FACTOR_ALREADY_ON } }
        : {
            status: 200,
            body: { qrCode: 'data:image/png;base64,iVBORw0KGgo=', secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x' },
          },
    'POST /patient/verifyqrCode': () => {
      verifiedAt.push(Date.now());
      return verifyReply;
    },
    // The api's rule, played back: a right code (123456) or the right password turns it off.
    'POST /patient/remove2FA': (req) => {
      const body = req.body as { code?: string; currentPassword?: string };
      if (body.code === '123456' || body.currentPassword === 'the right password') {
        twoFactorOn = false;
        return { status: 200, body: { message: 'Two-factor authentication disabled' } };
      }
      return { status: 403, body: { error: body.code ? TWO_FACTOR_CODE_WRONG : CURRENT_PASSWORD_WRONG } };
    },
    'POST /doctor/complete-profile': () => completeReply,
    'GET /patient/recovery-codes': () => ({ status: 200, body: { remaining: twoFactorOn ? 7 : 0 } }),
  });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  twoFactorOn = false;
  localStorage.clear();
  useSession.getState().login('t', 'patient');
});

function renderAt(path: string, element: React.ReactNode) {
  const router = createMemoryRouter(
    [
      { path, element },
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

describe('two-factor settings', () => {
  test('the switch starts off; on shows the QR code and the secret', async () => {
    renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    const toggle = screen.getByRole('switch', { name: 'Enable two-factor authentication' });
    expect(toggle).not.toBeChecked();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    fireEvent.click(toggle);
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(screen.getByRole('img')).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(await screen.findByText(/currently off/)).toBeInTheDocument();
  });

  test('a code verifies itself 800 ms after typing stops, not before', async () => {
    verifyReply = { status: 200, body: { verify: true } };
    renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    fireEvent.click(screen.getByRole('switch'));
    const field = await screen.findByLabelText('Verification code');
    fireEvent.change(field, { target: { value: '12345' } });
    verifiedAt.length = 0;
    // the time before the change: the debounce starts inside it, and a loaded machine may take a while to return
    const typed = Date.now();
    fireEvent.change(field, { target: { value: '123456' } });
    expect(await screen.findByText('Verification Successful!', {}, { timeout: 3000 })).toBeInTheDocument();
    // One request, 800 ms (less a clock tick) after the last change at the earliest.
    expect(verifiedAt).toHaveLength(1);
    expect(verifiedAt[0] - typed).toBeGreaterThanOrEqual(799);
    expect(calls('POST', '/patient/verifyqrCode').map((r) => r.body)).toEqual([{ code: '123456' }]);
    // on now: the QR code, the secret and the code field are gone, and the switch is back off
    expect(screen.queryByTestId('totp-secret')).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Verification code')).not.toBeInTheDocument();
    expect(screen.getByRole('switch')).not.toBeChecked();
  });

  test('turning it on shows the ten recovery codes once; Continue only after "I have saved these codes"', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `ABCDE-FGHJ${'ABCDEFGHJK'[i]}`);
    verifyReply = { status: 200, body: { verify: true, recoveryCodes: codes } };
    useMfaGate.getState().setRequired(true);
    const router = renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    expect(screen.getByText('Two-factor authentication is required')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('switch'));
    fireEvent.change(await screen.findByLabelText('Verification code'), { target: { value: '123456' } });
    const list = await screen.findByTestId('recovery-codes', {}, { timeout: 3000 });
    expect(Array.from(list.querySelectorAll('li')).map((li) => li.textContent)).toEqual(codes);
    expect(useMfaGate.getState().required).toBe(false);
    const go = screen.getByRole('button', { name: 'Continue' });
    expect(go).toBeDisabled();
    fireEvent.click(screen.getByLabelText('I have saved these codes'));
    fireEvent.click(go);
    await waitFor(() => expect(router.state.location.pathname).toBe('/patient/dashboard'));
  });

  test('with two-factor on, the page says how many recovery codes are left', async () => {
    twoFactorOn = true;
    renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    expect(await screen.findByTestId('recovery-codes-left')).toHaveTextContent('7 unused recovery codes left.');
  });

  test('once the api said two-factor is required, a guarded page sends to the set-up page; a beforeMfa one does not', async () => {
    useMfaGate.getState().setRequired(true);
    const router = createMemoryRouter(
      [
        { path: '/patient/dashboard', element: <RequireSession role="patient">dashboard</RequireSession> },
        {
          path: '/patient/complete-profile',
          element: (
            <RequireSession role="patient" beforeMfa>
              complete
            </RequireSession>
          ),
        },
        { path: '/patient/enable2fa', element: <p>set-up page</p> },
      ],
      { initialEntries: ['/patient/dashboard'] },
    );
    useSession.getState().start();
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('set-up page')).toBeInTheDocument();
    await router.navigate('/patient/complete-profile');
    expect(await screen.findByText('complete')).toBeInTheDocument();
    useMfaGate.getState().setRequired(false);
  });

  test('a wrong code says "Verification Failed."; a failed call "Error verifying code."', async () => {
    verifyReply = { status: 200, body: { verify: false } };
    renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    fireEvent.click(screen.getByRole('switch'));
    const field = await screen.findByLabelText('Verification code');
    fireEvent.change(field, { target: { value: '000000' } });
    expect(await screen.findByText('Verification Failed.', {}, { timeout: 3000 })).toBeInTheDocument();
    verifyReply = { status: 500, body: { error: 'Internal server error' } };
    fireEvent.change(field, { target: { value: '111111' } });
    expect(await screen.findByText('Error verifying code.', {}, { timeout: 3000 })).toBeInTheDocument();
  });

  test('switching off hides the QR code; a secret never verified needs no remove call', async () => {
    renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    fireEvent.click(screen.getByRole('switch'));
    await screen.findByTestId('totp-secret');
    fireEvent.click(screen.getByRole('switch'));
    await waitFor(() => expect(screen.queryByTestId('totp-secret')).not.toBeInTheDocument());
    expect(screen.getByRole('switch')).not.toBeChecked();
    expect(calls('POST', '/patient/remove2FA')).toHaveLength(0);
  });

  test('when two-factor is on, the switch shows the server\'s "turn it off first" (409), no QR code', async () => {
    twoFactorOn = true;
    renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    await screen.findByText('Two-factor authentication is on');
    fireEvent.click(screen.getByRole('switch'));
    expect(await screen.findByText(TWO_FACTOR_ALREADY_ON)).toBeInTheDocument();
    expect(screen.queryByTestId('totp-secret')).not.toBeInTheDocument();
  });

  test('when two-factor is already on, "Turn off" asks for a code: a wrong one is refused, a right one removes it', async () => {
    twoFactorOn = true;
    renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    expect(await screen.findByText('Two-factor authentication is on')).toBeInTheDocument();
    expect(screen.getByText(/currently on/)).toBeInTheDocument();
    // SPEC §4: the switch itself still starts off.
    expect(screen.getByRole('switch')).not.toBeChecked();
    // Nothing typed: nothing sent.
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Enter a code from your authenticator app, or your current password.',
    );
    expect(calls('POST', '/patient/remove2FA')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Authenticator code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(TWO_FACTOR_CODE_WRONG)).toBeInTheDocument();
    expect(screen.getByText('Two-factor authentication is on')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Authenticator code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(/currently off/)).toBeInTheDocument();
    expect(calls('POST', '/patient/remove2FA').map((r) => r.body)).toEqual([{ code: '654321' }, { code: '123456' }]);
    expect(screen.queryByText('Two-factor authentication is on')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();
  });

  test('"Turn off" with the current password instead of a code (a lost phone)', async () => {
    twoFactorOn = true;
    renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    await screen.findByText('Two-factor authentication is on');
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'a wrong password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(CURRENT_PASSWORD_WRONG);
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'the right password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(/currently off/)).toBeInTheDocument();
    expect(calls('POST', '/patient/remove2FA').map((r) => r.body)).toEqual([
      { currentPassword: 'a wrong password' },
      { currentPassword: 'the right password' },
    ]);
  });

  test('when two-factor is off there is no "Turn off"', async () => {
    renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    expect(await screen.findByText(/currently off/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();
  });

  test('the QR code is not resized by CSS: it shows at its own pixel size', async () => {
    renderAt('/patient/enable2fa', <TwoFactorSettings role="patient" />);
    fireEvent.click(screen.getByRole('switch'));
    const qr = await screen.findByRole('img');
    const style = getComputedStyle(qr);
    expect(style.width).toBe('auto');
    expect(style.height).toBe('auto');
    expect(qr).not.toHaveAttribute('width');
  });
});

describe('complete profile', () => {
  /** The doctor's form with its other fields filled in; Gender as given. */
  function DoctorForm({ gender }: { gender: string }) {
    const doctor = useSchemaForm(DoctorCompleteProfileForm, {
      gender,
      specialization: 'GP',
      yearsOfExperience: '3',
      qualifications: 'MBBS',
    });
    return (
      <CompleteProfileForm role="doctor" form={doctor}>
        <FormSelectField name="gender" label="Gender" options={COMPLETE_PROFILE_GENDERS} />
      </CompleteProfileForm>
    );
  }
  const form = <DoctorForm gender="Female" />;

  test('"Prefer not to say" is not offered', () => {
    renderAt('/doctor/complete-profile', <DoctorForm gender="" />);
    const options = Array.from(screen.getByLabelText('Gender').querySelectorAll('option')).map((o) => o.textContent);
    expect(options).toEqual(['Select…', 'Male', 'Female', 'Other']);
  });

  test('success says so, stores the token, then goes to login', async () => {
    completeReply = { status: 200, body: { token: 'done', role: 'doctor' } };
    const router = renderAt('/doctor/complete-profile', form);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Profile completed successfully!')).toBeInTheDocument();
    expect(useSession.getState()).toMatchObject({ token: 'done', role: 'doctor' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login/doctor'), { timeout: 3000 });
    expect(calls('POST', '/doctor/complete-profile')[0].body).toEqual({
      gender: 'Female',
      specialization: ['GP'],
      yearsOfExperience: 3,
      qualifications: ['MBBS'],
    });
  });

  test('no token: "No token received"; an error: the server text, or a generic one', async () => {
    completeReply = { status: 200, body: {} };
    renderAt('/doctor/complete-profile', form);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('No token received')).toBeInTheDocument();
    completeReply = { status: 400, body: { error: 'gender: Invalid option' } };
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('gender: Invalid option')).toBeInTheDocument();
    completeReply = { status: 502 };
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('An unexpected error occurred')).toBeInTheDocument();
  });

  test("every field is required by the api's schema: an empty one is shown beside itself and nothing is sent", async () => {
    renderAt('/doctor/complete-profile', <DoctorForm gender="" />);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByLabelText('Gender')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByLabelText('Gender')).toHaveAccessibleDescription(/.+/);
    expect(calls('POST', '/doctor/complete-profile')).toHaveLength(0);
  });

  test("the server's error about a field is also shown beside it", async () => {
    completeReply = { status: 400, body: { error: 'gender: Invalid option' } };
    renderAt('/doctor/complete-profile', form);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByLabelText('Gender')).toHaveAccessibleDescription('Invalid option'));
  });
});
