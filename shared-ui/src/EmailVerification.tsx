import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@careloop/shared-router';
import styled from 'styled-components';
import type { Role } from '@careloop/shared-contracts';
import {
  dashboardPath,
  disownEmail,
  httpStatus,
  otherRole,
  profileKey,
  resendVerification,
  serverError,
  useAccount,
  useSession,
  verifyEmail,
} from '@careloop/shared-auth';
import { Banner, Button, Card, Heading, Narrow, Page } from './components';
import { TextField } from './inputs';
import { theme } from './theme';

type Outcome = { tone: 'success' | 'error'; text: string };
/** `used`: the link was spent and the address is verified (410): only a way in is offered. */
type VerifyOutcome = { tone: Outcome['tone'] | 'used'; text: string };

/**
 * /{role}/verify-email/{token}: the link from the verification mail. The token is posted only when
 * the person submits, so a mail scanner that merely opens the link spends nothing. The account's
 * password is asked too: a link mailed to someone who never signed up (a stranger typed their
 * address) must not verify the stranger's account — that person picks "I did not create this
 * account" instead, which deletes it.
 */
export function VerifyEmailView({ role }: { role: Role }) {
  const { token = '' } = useParams();
  const queryClient = useQueryClient();
  const signedInAs = useSession((s) => (s.token ? s.role : null));
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<VerifyOutcome | null>(null);

  async function verify(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const { message } = await verifyEmail(role, token, password);
      setOutcome({ tone: 'success', text: message });
      // The dashboard's banner reads the profile: it must learn the address is verified now.
      void queryClient.invalidateQueries({ queryKey: profileKey(role) });
    } catch (err) {
      const text = (await serverError(err)) ?? 'Could not verify your e-mail address. Try again?';
      setOutcome({ tone: httpStatus(err) === 410 ? 'used' : 'error', text });
    } finally {
      setBusy(false);
    }
  }

  async function disown() {
    setBusy(true);
    setOutcome(null);
    try {
      const { message } = await disownEmail(role, token);
      setOutcome({ tone: 'success', text: message });
    } catch (err) {
      setOutcome({ tone: 'error', text: (await serverError(err)) ?? 'Could not do that. Try again?' });
    } finally {
      setBusy(false);
    }
  }

  const next =
    signedInAs === role ? <Link to={dashboardPath(role)}>Go to your dashboard</Link> : <Link to={`/login/${role}`}>Sign in</Link>;
  return (
    <Page>
      <Narrow>
        <Heading>Verify your e-mail address</Heading>
        {outcome?.tone === 'success' || outcome?.tone === 'used' ? (
          <>
            <Banner tone={outcome.tone === 'success' ? 'success' : 'info'}>{outcome.text}</Banner>
            {next}
          </>
        ) : (
          <>
            <form onSubmit={(e) => void verify(e)}>
              <p>Confirm that this e-mail address belongs to your CareLoop {role} account: enter the account&apos;s password.</p>
              <TextField
                label="Password"
                type="password"
                value={password}
                onChange={setPassword}
                autoComplete="current-password"
                required
              />
              {outcome && <Banner tone="error">{outcome.text}</Banner>}
              <Button type="submit" busy={busy} disabled={password === ''}>
                Verify my e-mail address
              </Button>
            </form>
            <p>Never signed up for CareLoop, or did not ask for this address to be added?</p>
            <Button type="button" $variant="secondary" onClick={() => void disown()} busy={busy}>
              I did not create this account
            </Button>
            {outcome && <p>{next}: from your dashboard you can ask for a new link.</p>}
          </>
        )}
      </Narrow>
    </Page>
  );
}

const Notice = styled(Card)`
  margin-bottom: 1rem;
  border-left: 4px solid ${theme.color.accent};
  overflow-wrap: anywhere;
  p {
    margin: 0 0 0.75rem;
  }
`;

/** The dashboard's notice for an account whose e-mail is not verified yet, with a resend button. */
export function VerifyEmailBanner({ role }: { role: Role }) {
  const { data: me } = useAccount(role);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  if (!me || me.emailVerified) return null;

  async function resend() {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ tone: 'success', text: (await resendVerification(role)).message });
    } catch (err) {
      setOutcome({ tone: 'error', text: (await serverError(err)) ?? 'Could not send the link. Try again?' });
    } finally {
      setBusy(false);
    }
  }

  const unseen =
    role === 'patient'
      ? `${otherRole(role)}s cannot find you by it and no reminders are sent to it`
      : `${otherRole(role)}s cannot find you by it and you cannot send connection requests`;
  return (
    <Notice aria-labelledby="verify-email-notice">
      <p id="verify-email-notice" role="status">
        <strong>Please verify your e-mail address.</strong> We sent a link to {me.email}. Until you follow it, {unseen}.
      </p>
      {outcome && <Banner tone={outcome.tone}>{outcome.text}</Banner>}
      <Button type="button" $variant="secondary" onClick={() => void resend()} busy={busy}>
        Resend the link
      </Button>
    </Notice>
  );
}
