import { useState } from 'react';
import { Link } from '@careloop/shared-router';
import { ForgotPasswordBody, type Role } from '@careloop/shared-contracts';
import { requestPasswordReset, roleTitle } from '@careloop/shared-auth';
import { Banner, FormTextField, Heading, Narrow, Page, SchemaForm, useSchemaForm, SubmitButton } from '@careloop/shared-ui';

/** /{role}/forgot-password: the answer is the same whether or not the e-mail has an account. */
export default function ForgotPassword({ role }: { role: Role }) {
  const form = useSchemaForm(ForgotPasswordBody, { email: '' });
  const [sent, setSent] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  async function submit(email: string) {
    setFailed(false);
    try {
      setSent((await requestPasswordReset(role, email)).message);
    } catch {
      setFailed(true);
    }
  }

  return (
    <Page>
      <Narrow>
        <Heading>Forgot your password?</Heading>
        <p>
          Enter the e-mail of your {roleTitle(role).toLowerCase()} account. We will send you a link to choose a new password; it
          works once, for 30 minutes.
        </p>
        <SchemaForm form={form} onSubmit={({ email }) => submit(email)}>
          <FormTextField name="email" label="Email" type="email" autoComplete="username" required />
          {failed && <Banner tone="error">Could not authenticate</Banner>}
          {sent && <Banner tone="success">{sent}</Banner>}
          <SubmitButton>Send reset link</SubmitButton>
        </SchemaForm>
        <p>
          <Link to={`/login/${role}`}>Back to sign in</Link>
        </p>
      </Narrow>
    </Page>
  );
}
