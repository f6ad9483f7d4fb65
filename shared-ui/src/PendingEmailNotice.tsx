import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { profileKey, serverError, useSession, withdrawPendingEmail } from '@careloop/shared-auth';
import { Banner, Button } from './components';

/**
 * A new e-mail is in force only once the link mailed to it is used: until then, say so, and let the
 * owner withdraw the change (the link then stops working).
 */
export function PendingEmailNotice({ pendingEmail }: { pendingEmail?: string | null }) {
  return pendingEmail ? <Pending pendingEmail={pendingEmail} /> : null;
}

function Pending({ pendingEmail }: { pendingEmail: string }) {
  const role = useSession((s) => (s.token ? s.role : null));
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function withdraw() {
    if (!role) return;
    setBusy(true);
    setError(null);
    try {
      await withdrawPendingEmail(role);
      await queryClient.invalidateQueries({ queryKey: profileKey(role) });
    } catch (err) {
      setError((await serverError(err)) ?? 'Could not withdraw the change. Try again?');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Banner tone="info">
      Waiting for confirmation of {pendingEmail} — check that inbox.{' '}
      {role && (
        <Button type="button" $variant="secondary" onClick={() => void withdraw()} disabled={busy}>
          Withdraw
        </Button>
      )}
      {error && <span role="alert"> {error}</span>}
    </Banner>
  );
}
