import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import {
  RemoveTwoFactorBody,
  TWO_FACTOR_VERIFY_DELAY_MS,
  VerifyCodeBody,
  type Role,
  type TwoFactorSetupResponse,
} from '@careloop/shared-contracts';
import {
  fetchTwoFactorSetup,
  profileKey,
  removeTwoFactor,
  serverError,
  useAccount,
  useMfaGate,
  verifyTwoFactorCode,
} from '@careloop/shared-auth';
import { useNavigate } from '@careloop/shared-router';
import { Banner, Button, Card, Heading, Row } from './components';
import { NewRecoveryCodes, RecoveryCodesPanel, recoveryCodesKey } from './RecoveryCodes';
import { TextField } from './inputs';
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

const TurnOffForm = styled.form`
  display: grid;
  gap: 0.25rem;
  margin-bottom: 1rem;
`;

/**
 * /patient/enable2fa and /doctor/enable2fa (SPEC §4): the switch starts off on every visit;
 * on fetches a new QR code and secret; a 6-digit code verifies itself 800 ms after typing stops;
 * off hides the code. Two-factor that is on is turned off with a current code or the password
 * (the api refuses a session alone, and a new QR code while it is on).
 */
export function TwoFactorSettings({ role }: { role: Role }) {
  const queryClient = useQueryClient();
  const account = useAccount(role);
  const [on, setOn] = useState(false);
  const [setup, setSetup] = useState<TwoFactorSetupResponse | null>(null);
  const [setupFailed, setSetupFailed] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [offCode, setOffCode] = useState('');
  const [offPassword, setOffPassword] = useState('');
  const [offError, setOffError] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const mfaRequired = useMfaGate((s) => s.required);
  const navigate = useNavigate();
  const refreshAccount = () => {
    void queryClient.invalidateQueries({ queryKey: recoveryCodesKey(role) });
    return queryClient.invalidateQueries({ queryKey: profileKey(role) });
  };

  async function toggle() {
    setOutcome(null);
    setCode('');
    if (!on) {
      setOn(true);
      setSetupFailed(null);
      try {
        setSetup(await fetchTwoFactorSetup(role));
      } catch (err) {
        // e.g. 409 while two-factor is on: the server says to turn it off first.
        setSetupFailed((await serverError(err)) ?? 'Could not start two-factor setup. Please try again.');
      }
    } else {
      // A secret never verified is simply dropped (the next QR code replaces it); one that went
      // on is turned off below, with a code or the password.
      setOn(false);
      setSetup(null);
      setSetupFailed(null);
      void refreshAccount();
    }
  }

  // The switch starts off on every visit (SPEC §4), so an account that already has two-factor
  // gets its own way to turn it off — proven by a current code, or the password for a lost phone.
  async function turnOff() {
    setOffError(null);
    const proof = offCode !== '' ? { code: offCode } : offPassword !== '' ? { currentPassword: offPassword } : null;
    if (!proof) return setOffError('Enter a code from your authenticator app, or your current password.');
    if (!RemoveTwoFactorBody.safeParse(proof).success) return setOffError('The code is 6 digits');
    setTurningOff(true);
    try {
      await removeTwoFactor(role, proof);
      setOffCode('');
      setOffPassword('');
      await refreshAccount();
    } catch (err) {
      setOffError((await serverError(err)) ?? 'Could not turn two-factor authentication off. Please try again.');
    } finally {
      setTurningOff(false);
    }
  }

  useEffect(() => {
    // The api's own rule for a code: only a complete one is sent.
    if (!setup || !VerifyCodeBody.safeParse({ code }).success) return;
    const timer = setTimeout(async () => {
      try {
        const { verify, recoveryCodes: codes } = await verifyTwoFactorCode(role, code);
        setOutcome(verify ? 'success' : 'failure');
        if (verify) {
          // On now: the api answers everything again; the new recovery codes are shown this once.
          // The QR code and secret go at once: the page now shows the state it is in.
          useMfaGate.getState().setRequired(false);
          setOn(false);
          setSetup(null);
          if (codes) setRecoveryCodes(codes);
          void refreshAccount();
        }
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
      {mfaRequired && (
        <Banner tone="error">
          <strong>Two-factor authentication is required</strong>
          <br />
          Your clinic requires it for your account before you can see patient data. Set it up below to continue.
        </Banner>
      )}
      {account.data && !account.data.twoFactorEnabled && !mfaRequired && (
        <Banner tone="info">Two-factor authentication is currently off for your account.</Banner>
      )}
      {account.data?.twoFactorEnabled && (
        <Banner tone="success">
          <strong>Two-factor authentication is on</strong>
          <br />
          It is currently on for your account: every login asks for a code after your password.
        </Banner>
      )}
      {outcome === 'success' && <Banner tone="success">{OUTCOME_TEXT.success}</Banner>}
      {recoveryCodes && <NewRecoveryCodes codes={recoveryCodes} onSaved={() => navigate(`/${role}/dashboard`)} />}
      {account.data?.twoFactorEnabled && !on && !recoveryCodes && (
        <TurnOffForm
          aria-label="Turn off two-factor authentication"
          onSubmit={(e) => {
            e.preventDefault();
            void turnOff();
          }}
        >
          <p>To turn it off, enter a current code from your authenticator app — or your password if you no longer have it.</p>
          <TextField
            label="Authenticator code"
            value={offCode}
            onChange={(v) => setOffCode(v.replace(/\D/g, '').slice(0, 6))}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
          />
          <TextField
            label="Current password"
            type="password"
            value={offPassword}
            onChange={setOffPassword}
            autoComplete="current-password"
          />
          {offError && <Banner tone="error">{offError}</Banner>}
          <Row>
            <Button type="submit" $variant="danger" busy={turningOff}>
              Turn off
            </Button>
          </Row>
        </TurnOffForm>
      )}
      <Switch>
        <input type="checkbox" role="switch" checked={on} onChange={() => void toggle()} />
        Enable two-factor authentication
      </Switch>
      {setupFailed && <Banner tone="error">{setupFailed}</Banner>}
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
          {outcome && outcome !== 'success' && <Banner tone="error">{OUTCOME_TEXT[outcome]}</Banner>}
        </Setup>
      )}
      {account.data?.twoFactorEnabled && !recoveryCodes && <RecoveryCodesPanel role={role} />}
    </Card>
  );
}
