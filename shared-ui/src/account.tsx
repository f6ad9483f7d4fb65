import { useNavigate } from '@careloop/shared-router';
import type { DoctorSignup, PatientSignup, Role } from '@careloop/shared-contracts';
import { useFormContext, useWatch, type UseFormReturn } from 'react-hook-form';
import { dashboardPath, roleTitle, signup, useSession } from '@careloop/shared-auth';
import { Heading, Narrow, Page } from './components';
import { FormTextField } from './fields';
import { MultiStepForm, type Step } from './MultiStepForm';
import { NewPasswordField } from './PasswordFeedback';
import { PendingEmailNotice } from './PendingEmailNotice';

export interface AccountValues {
  name: string;
  email: string;
  password: string;
}
export const EMPTY_ACCOUNT: AccountValues = { name: '', email: '', password: '' };
/** The account step's field names, for the step's `fields`. */
export const ACCOUNT_FIELDS = ['name', 'email', 'password'] as const;
/** Profile edit's account step: the current password too, asked when the password or e-mail changes. */
export const EDIT_ACCOUNT_FIELDS = [...ACCOUNT_FIELDS, 'currentPassword'] as const;

/**
 * Name, e-mail and password: the first step of signup and of profile edit (inside a form). In
 * edit, a new password or a changed e-mail also asks for the current password (the api refuses
 * either without it), and a new e-mail still waiting for its link is shown.
 */
export function AccountFields({ mode, pendingEmail }: { mode: 'signup' | 'edit'; pendingEmail?: string | null }) {
  return (
    <>
      <FormTextField name="name" label="Name" autoComplete="name" />
      <FormTextField name="email" label="Email" type="email" autoComplete="email" />
      {mode === 'edit' && <PendingEmailNotice pendingEmail={pendingEmail} />}
      <NewPasswordField
        name="password"
        label={mode === 'signup' ? 'Password' : 'New password'}
        placeholder={mode === 'signup' ? 'At least 8 characters' : 'Leave empty to keep your password'}
        accountFields={['name', 'email']}
      />
      {mode === 'edit' && <CurrentPasswordField />}
    </>
  );
}

/** Shown once the password is typed or the e-mail differs from the loaded one (the form's default). */
function CurrentPasswordField() {
  const { formState } = useFormContext<{ email?: string; password?: string }>();
  const [email, password] = useWatch<{ email?: string; password?: string }, ['email', 'password']>({
    name: ['email', 'password'],
  });
  const loaded = formState.defaultValues?.email ?? '';
  const changing = (password ?? '') !== '' || (email ?? '').trim().toLowerCase() !== loaded.trim().toLowerCase();
  if (!changing) return null;
  return (
    <FormTextField
      name="currentPassword"
      label="Current password"
      type="password"
      autoComplete="current-password"
      placeholder="Needed to change your password or e-mail"
    />
  );
}

type SignupBody<R extends Role> = R extends 'patient' ? PatientSignup : DoctorSignup;

/**
 * Three-step signup for either role: the account step here, the role's own steps given, in a
 * form the role's view made from its signup schema (useSchemaForm). Success signs in and opens
 * the role's dashboard; failure is SPEC §8's text plus the reason, which also shows beside its
 * field when it is about one.
 */
export function SignupForm<R extends Role, Values extends AccountValues>({
  role,
  form,
  steps,
}: {
  role: R;
  form: UseFormReturn<Values, unknown, SignupBody<R>>;
  steps: Step[];
}) {
  const navigate = useNavigate();
  const startSession = useSession((s) => s.login);

  async function finish(body: SignupBody<R>) {
    const { token } = await (role === 'patient'
      ? signup('patient', body as PatientSignup)
      : signup('doctor', body as DoctorSignup));
    startSession(token, role);
    navigate(dashboardPath(role));
  }

  return (
    <Page>
      <Narrow>
        <Heading>Create your {roleTitle(role).toLowerCase()} account</Heading>
        <MultiStepForm
          label={`${roleTitle(role)} signup`}
          form={form}
          onFinish={finish}
          bannerForFieldErrors
          failure={(reason) => (
            <>
              Could not register. Try again?
              {reason && (
                <small>
                  <br />
                  {reason}
                </small>
              )}
            </>
          )}
          steps={[{ title: 'Account', fields: ACCOUNT_FIELDS, content: <AccountFields mode="signup" /> }, ...steps]}
        />
      </Narrow>
    </Page>
  );
}
