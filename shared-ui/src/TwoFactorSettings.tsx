import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import { TWO_FACTOR_VERIFY_DELAY_MS, VerifyCodeBody, type Role, type TwoFactorSetupResponse } from 'shared-contracts';
import { fetchTwoFactorSetup, profileKey, removeTwoFactor, useAccount, verifyTwoFactorCode } from 'shared-auth';
import { Banner, Button, Card, Heading, Row } from './components';
import { TextField } from './fields';
import { theme } from './theme';

const Switch = styled.label`
  display: inline-flex;
  align-items: center;
  gap: 0.6rem;
  font-weight: 600;
  cursor: pointer;
  input {
    width: 2.6rem;
    height: 1.4rem;
    accent-color: ${theme.color.primary};
    cursor: pointer;
  }
`;
const Setup = styled.div`
  display: grid;
  gap: 1rem;
  margin-top: 1.25rem;
  /* Shown at the image's own size: any CSS scaling (it was 240 → 198 px) resamples the modules
     unevenly, and a phone camera reads an even grid best. The border sits outside via outline. */
  img {
    width: auto;
    height: auto;
    max-width: none;
    justify-self: start;
    outline: 1px solid ${theme.color.border};
  }
  code {
    font-size: 1.05rem;
    letter-spacing: 0.08em;
    overflow-wrap: anywhere;
  }
`;

type Outcome = 'success' | 'failure' | 'error';
const OUTCOME_TEXT: Record<Outcome, string> = {
  success: 'Verification Successful!',
  failure: 'Verification Failed.',
  error: 'Error verifying code.',
};

/**
 * /patient/enable2fa and /doctor/enable2fa (SPEC §4): the switch starts off on every visit;
 * on fetches a new QR code and secret; a 6-digit code verifies itself 800 ms after typing stops;
 * off removes two-factor and hides the code.
 */
export function TwoFactorSettings({ role }: { role: Role }) {
  const queryClient = useQueryClient();
  const account = useAccount(role);
  const [on, setOn] = useState(false);
  const [setup, setSetup] = useState<TwoFactorSetupResponse | null>(null);
  const [setupFailed, setSetupFailed] = useState(false);
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const refreshAccount = () => queryClient.invalidateQueries({ queryKey: profileKey(role) });

  async function toggle() {
    setOutcome(null);
    setCode('');
    if (!on) {
      setOn(true);
      setSetupFailed(false);
      try {
        setSetup(await fetchTwoFactorSetup(role));
      } catch {
        setSetupFailed(true);
      }
    } else {
      setOn(false);
      setSetup(null);
      await removeTwoFactor(role).catch(() => undefined);
      void refreshAccount();
    }
  }

  // The switch starts off on every visit (SPEC §4), so an account that already has two-factor
  // gets its own way to turn it off: the same remove call the switch makes.
  async function turnOff() {
    setTurningOff(true);
    await removeTwoFactor(role).catch(() => undefined);
    await refreshAccount();
    setTurningOff(false);
  }

  useEffect(() => {
    // The api's own rule for a code: only a complete one is sent.
    if (!setup || !VerifyCodeBody.safeParse({ code }).success) return;
    const timer = setTimeout(async () => {
      try {
        const { verify } = await verifyTwoFactorCode(role, code);
        setOutcome(verify ? 'success' : 'failure');
        if (verify) void refreshAccount();
      } catch {
        setOutcome('error');
      }
    }, TWO_FACTOR_VERIFY_DELAY_MS);
    return () => clearTimeout(timer);
    // refreshAccount is stable enough: it only invalidates a key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, setup, role]);

  return (
    <Card>
      <Heading>Two-Factor Authentication</Heading>
      <p>
        Protect your account with a 6-digit code from an authenticator app (Google Authenticator, Microsoft Authenticator,
        1Password, …), asked for at every login after your password.
      </p>
      {account.data && !account.data.twoFactorEnabled && (
        <Banner tone="info">Two-factor authentication is currently off for your account.</Banner>
      )}
      {account.data?.twoFactorEnabled && (
        <Banner tone="success">
          <strong>Two-factor authentication is on</strong>
          <br />
          It is currently on for your account: every login asks for a code after your password.
        </Banner>
      )}
      {account.data?.twoFactorEnabled && !on && (
        <Row style={{ marginBottom: '1rem' }}>
          <Button type="button" $variant="danger" disabled={turningOff} onClick={() => void turnOff()}>
            Turn off
          </Button>
        </Row>
      )}
      <Switch>
        <input type="checkbox" role="switch" checked={on} onChange={() => void toggle()} />
        Enable two-factor authentication
      </Switch>
      {setupFailed && <Banner tone="error">Could not start two-factor setup. Please try again.</Banner>}
      {setup && (
        <Setup>
          <p>1. Scan this QR code with your authenticator app.</p>
          <img src={setup.qrCode} alt="QR code to add CareLoop to your authenticator app" />
          <p>
            Can't scan it? Enter this key by hand: <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <p>2. Enter the 6-digit code the app shows.</p>
          <TextField
            label="Verification code"
            value={code}
            onChange={(v) => {
              setOutcome(null);
              setCode(v.replace(/\D/g, '').slice(0, 6));
            }}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
          />
          {outcome && <Banner tone={outcome === 'success' ? 'success' : 'error'}>{OUTCOME_TEXT[outcome]}</Banner>}
        </Setup>
      )}
    </Card>
  );
}
