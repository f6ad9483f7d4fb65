import type { ReactNode } from 'react';
import { Navigate } from '@careloop/shared-router';
import type { Role } from '@careloop/shared-contracts';
import { idleSignedOutRole } from './idle';
import { useMfaGate } from './mfa';
import { useSession } from './session';

/**
 * Unauthenticated visitors (or the other role) go to /; a session the automatic logoff ended goes
 * to its role's login page, which says why. Renders nothing until the session is read. Once the
 * api said two-factor is required (useMfaGate), every page but those marked `beforeMfa` (set-up,
 * profile completion) sends to the role's two-factor set-up page.
 */
export function RequireSession({ role, beforeMfa = false, children }: { role?: Role; beforeMfa?: boolean; children: ReactNode }) {
  const { isLoading, isAuthenticated, role: current } = useSession();
  const mfaRequired = useMfaGate((s) => s.required);
  if (isLoading) return null;
  if (!isAuthenticated) {
    const idle = idleSignedOutRole();
    return <Navigate to={idle ? `/login/${idle}` : '/'} replace />;
  }
  if (role && current !== role) return <Navigate to="/" replace />;
  if (mfaRequired && !beforeMfa && current) return <Navigate to={`/${current}/enable2fa`} replace />;
  return <>{children}</>;
}
