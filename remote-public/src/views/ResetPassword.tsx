import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link, useParams } from '@careloop/shared-router';
import { PASSWORD_MIN, ResetPasswordBody, type Role } from '@careloop/shared-contracts';
import { resetPassword, serverError } from '@careloop/shared-auth';
import {
  Banner,
  FormTextField,
  Heading,
  Narrow,
  NewPasswordField,
  Page,
  SchemaForm,
  fieldErrorsFrom,
  useSchemaForm,
  SubmitButton,
} from '@careloop/shared-ui';

/** The api's body plus the repeated password, which only the form has. */
const ResetFormSchema = ResetPasswordBody.extend({ confirm: ResetPasswordBody.shape.password });

/** /{role}/reset-password/{id}/{token}: the link from the reset e-mail. */
export default function ResetPassword({ role }: { role: Role }) {
  const { id = '', token = '' } = useParams();
  const form = useSchemaForm(ResetFormSchema, { password: '', confirm: '' });
  const [password, confirm] = useWatch({ control: form.control, name: ['password', 'confirm'] });
  const [done, setDone] = useState<string | null>(null);
  /** false, or the refusal: with the api's reason when it is about the link, not the password field. */
  const [failed, setFailed] = useState<false | { reason?: string }>(false);
  const mismatch = confirm !== '' && confirm !== password;

  async function submit(newPassword: string) {
    if (mismatch) return;
    setFailed(false);
    try {
      setDone((await resetPassword(role, id, token, newPassword)).message);
    } catch (err) {
      // SPEC §8's banner stays; a password the api refused (too guessable) says why under the field,
      // a dead link (expired, used, or the account changed since) says why in the banner.
      const message = await serverError(err);
      const fieldErrors = fieldErrorsFrom(message, ['password']);
      for (const { field, message } of fieldErrors) {
        form.setError(field as 'password', { type: 'server', message });
      }
      setFailed({ reason: fieldErrors.length === 0 ? message : undefined });
    }
  }

  return (
    <Page>
      <Narrow>
        <Heading>Choose a new password</Heading>
        {done ? (
          <>
            <Banner tone="success">{done}</Banner>
            <Link to={`/login/${role}`}>Sign in</Link>
          </>
        ) : (
          <SchemaForm form={form} onSubmit={(body) => submit(body.password)}>
            <NewPasswordField name="password" label="New password" minLength={PASSWORD_MIN} required />
            <FormTextField name="confirm" label="Repeat the new password" type="password" autoComplete="new-password" required />
            {mismatch && <Banner tone="info">The two passwords differ.</Banner>}
            {failed && (
              <Banner tone="error">
                Could not authenticate
                {failed.reason && <span>. {failed.reason}</span>}
              </Banner>
            )}
            <SubmitButton disabled={mismatch}>Set new password</SubmitButton>
          </SchemaForm>
        )}
      </Narrow>
    </Page>
  );
}
