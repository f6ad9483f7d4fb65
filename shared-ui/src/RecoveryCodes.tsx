import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import type { Role } from '@careloop/shared-contracts';
import { fetchRecoveryCodesStatus, regenerateRecoveryCodes, serverError } from '@careloop/shared-auth';
import { Banner, Button, ButtonLink, Row } from './components';
import { TextField } from './inputs';
import { theme } from './theme';

const CodeList = styled.ol`
  display: grid;
  grid-template-columns: repeat(2, max-content);
  gap: 0.4rem 2rem;
  padding-left: 1.5rem;
  font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
  font-size: 1.05rem;
  letter-spacing: 0.06em;
`;
const Box = styled.div`
  display: grid;
  gap: 0.75rem;
  margin-top: 1rem;
  padding: 1rem;
  border: 1px solid ${theme.color.border};
  border-radius: 8px;
`;

export const recoveryCodesKey = (role: Role) => ['recovery-codes', role] as const;

/**
 * Recovery codes shown once, as the api answered them: copy or download, and an "I have saved
 * these codes" step before `onSaved` (e.g. going on to the dashboard).
 */
export function NewRecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved?: () => void }) {
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState(false);
  const text = `CareLoop recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'careloop-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  }
  return (
    <Box aria-label="Your recovery codes" role="region">
      <strong>Your recovery codes</strong>
      <p>
        If you lose your phone, sign in with one of these codes instead of an authenticator code. Each works once. Keep them
        somewhere safe: they are shown only now.
      </p>
      <CodeList data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </CodeList>
      <Row>
        <Button
          type="button"
          $variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button type="button" $variant="secondary" onClick={download}>
          Download
        </Button>
      </Row>
      <label>
        <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} /> I have saved these codes
      </label>
      {onSaved && (
        <Row>
          <Button type="button" disabled={!saved} onClick={onSaved}>
            Continue
          </Button>
        </Row>
      )}
    </Box>
  );
}

/** The security page's part for an account with two-factor on: codes left, and new ones with the password. */
export function RecoveryCodesPanel({ role }: { role: Role }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: recoveryCodesKey(role), queryFn: () => fetchRecoveryCodesStatus(role) });
  const [password, setPassword] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function regenerate() {
    setError(null);
    if (!password) return setError('Enter your current password to make new recovery codes.');
    setBusy(true);
    try {
      const res = await regenerateRecoveryCodes(role, password);
      setCodes(res.recoveryCodes);
      setPassword('');
      await queryClient.invalidateQueries({ queryKey: recoveryCodesKey(role) });
    } catch (err) {
      setError((await serverError(err)) ?? 'Could not make new recovery codes. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const left = status.data?.remaining;
  return (
    <Box>
      <strong>Recovery codes</strong>
      {left !== undefined && (
        <p data-testid="recovery-codes-left">
          {left} unused recovery code{left === 1 ? '' : 's'} left.
        </p>
      )}
      {left === 0 && <Banner tone="error">You have no recovery codes left: make new ones.</Banner>}
      {codes ? (
        <NewRecoveryCodes codes={codes} onSaved={() => setCodes(null)} />
      ) : (
        <form
          aria-label="Make new recovery codes"
          onSubmit={(e) => {
            e.preventDefault();
            void regenerate();
          }}
        >
          <p>New codes replace all the old ones.</p>
          <TextField
            label="Your password, for new codes"
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
          />
          {error && <Banner tone="error">{error}</Banner>}
          <Row>
            <Button type="submit" $variant="secondary" busy={busy}>
              Make new recovery codes
            </Button>
          </Row>
        </form>
      )}
    </Box>
  );
}

const SUGGESTION_DISMISSED = 'twoFactorSuggestionDismissed';

/**
 * A dismissible suggestion (not a requirement) to turn two-factor on, for an account whose role
 * the api does not force; dismissed, it stays away on this browser.
 */
export function TwoFactorSuggestion({ role, twoFactorEnabled }: { role: Role; twoFactorEnabled: boolean | undefined }) {
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(SUGGESTION_DISMISSED) === role);
  if (twoFactorEnabled !== false || dismissed) return null;
  return (
    <Banner tone="info">
      <strong>Protect your health record with two-factor authentication</strong>
      <br />A code from your phone at every sign-in keeps your records safe even if your password leaks.{' '}
      <Row>
        <ButtonLink to={`/${role}/enable2fa`}>Set it up</ButtonLink>
        <Button
          type="button"
          $variant="secondary"
          onClick={() => {
            localStorage.setItem(SUGGESTION_DISMISSED, role);
            setDismissed(true);
          }}
        >
          Not now
        </Button>
      </Row>
    </Banner>
  );
}
