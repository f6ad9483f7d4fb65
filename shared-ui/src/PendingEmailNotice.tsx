import { Banner } from './components';

/** A new e-mail is in force only once the link mailed to it is used: until then, say so. */
export function PendingEmailNotice({ pendingEmail }: { pendingEmail?: string | null }) {
  if (!pendingEmail) return null;
  return <Banner tone="info">Waiting for confirmation of {pendingEmail} — check that inbox.</Banner>;
}
