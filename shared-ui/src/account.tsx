import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { DoctorSignup, PatientSignup, Role } from 'shared-contracts';
import { dashboardPath, roleTitle, serverError, signup, useSession } from 'shared-auth';
import { Heading, Narrow, Page } from './components';
import { TextField } from './fields';
import { MultiStepForm, type Step } from './MultiStepForm';

export interface AccountValues {
  name: string;
  email: string;
  password: string;
}
export const EMPTY_ACCOUNT: AccountValues = { name: '', email: '', password: '' };

/** Name, e-mail and password: the first step of signup and of profile edit. */
export function AccountFields({
  value, onChange, mode,
}: { value: AccountValues; onChange(value: AccountValues): void; mode: 'signup' | 'edit' }) {
  const set = (field: keyof AccountValues) => (v: string) => onChange({ ...value, [field]: v });
  return (
    <>
      <TextField label="Name" value={value.name} onChange={set('name')} autoComplete="name" />
      <TextField label="Email" type="email" value={value.email} onChange={set('email')} autoComplete="email" />
      <TextField
        label={mode === 'signup' ? 'Password' : 'New password'}
        type="password"
        value={value.password}
        onChange={set('password')}
        autoComplete="new-password"
        placeholder={mode === 'signup' ? 'At least 8 characters' : 'Leave empty to keep your password'}
      />
    </>
  );
}

type SignupExtra<R extends Role> = Omit<R extends 'patient' ? PatientSignup : DoctorSignup, keyof AccountValues>;

/**
 * Three-step signup for either role: the account step here, the role's own steps given.
 * Success signs in and opens the role's dashboard; failure is SPEC §8's text plus the reason.
 */
export function SignupForm<R extends Role>({
  role, steps, extra,
}: { role: R; steps: Step[]; extra(): SignupExtra<R> }) {
  const navigate = useNavigate();
  const startSession = useSession((s) => s.login);
  const [account, setAccount] = useState(EMPTY_ACCOUNT);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function finish() {
    setBusy(true);
    setError(null);
    try {
      const body = { ...account, ...extra() };
      const { token } = await (role === 'patient'
        ? signup('patient', body as PatientSignup)
        : signup('doctor', body as DoctorSignup));
      startSession(token, role);
      navigate(dashboardPath(role));
    } catch (err) {
      setError((await serverError(err)) ?? '');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page>
      <Narrow>
        <Heading>Create your {roleTitle(role).toLowerCase()} account</Heading>
        <MultiStepForm
          label={`${roleTitle(role)} signup`}
          busy={busy}
          onFinish={finish}
          error={error !== null && <>Could not register. Try again?{error && <small><br />{error}</small>}</>}
          steps={[
            { title: 'Account', content: <AccountFields value={account} onChange={setAccount} mode="signup" /> },
            ...steps,
          ]}
        />
      </Narrow>
    </Page>
  );
}
