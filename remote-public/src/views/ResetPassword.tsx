import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { PASSWORD_MIN, type Role } from 'shared-contracts';
import { resetPassword } from 'shared-auth';
import { Banner, Button, Heading, Narrow, Page, TextField } from 'shared-ui';

/** /{role}/reset-password/{id}/{token}: the link from the reset e-mail. */
export default function ResetPassword({ role }: { role: Role }) {
  const { id = '', token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const mismatch = confirm !== '' && confirm !== password;

  async function submit() {
    if (mismatch) return;
    setBusy(true);
    setFailed(false);
    try {
      setDone((await resetPassword(role, id, token, password)).message);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
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
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <TextField label="New password" type="password" value={password} onChange={setPassword} autoComplete="new-password" minLength={PASSWORD_MIN} required />
            <TextField label="Repeat the new password" type="password" value={confirm} onChange={setConfirm} autoComplete="new-password" required />
            {mismatch && <Banner tone="info">The two passwords differ.</Banner>}
            {failed && <Banner tone="error">Could not authenticate</Banner>}
            <Button type="submit" disabled={busy || mismatch}>
              Set new password
            </Button>
          </form>
        )}
      </Narrow>
    </Page>
  );
}
