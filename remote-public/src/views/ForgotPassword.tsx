import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Role } from 'shared-contracts';
import { requestPasswordReset, roleTitle } from 'shared-auth';
import { Banner, Button, Heading, Narrow, Page, TextField } from 'shared-ui';

/** /{role}/forgot-password: the answer is the same whether or not the e-mail has an account. */
export default function ForgotPassword({ role }: { role: Role }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit() {
    setBusy(true);
    setFailed(false);
    try {
      setSent((await requestPasswordReset(role, email)).message);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page>
      <Narrow>
        <Heading>Forgot your password?</Heading>
        <p>Enter the e-mail of your {roleTitle(role).toLowerCase()} account. We will send you a link to choose a new password; it works once, for 30 minutes.</p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <TextField label="Email" type="email" value={email} onChange={setEmail} autoComplete="username" required />
          {failed && <Banner tone="error">Could not authenticate</Banner>}
          {sent && <Banner tone="success">{sent}</Banner>}
          <Button type="submit" disabled={busy}>
            Send reset link
          </Button>
        </form>
        <p>
          <Link to={`/login/${role}`}>Back to sign in</Link>
        </p>
      </Narrow>
    </Page>
  );
}
