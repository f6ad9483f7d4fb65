import type { ReactNode } from 'react';
import { Navigate } from 'shared-router';
import type { Role } from 'shared-contracts';
import { idleSignedOutRole } from './idle';
import { useSession } from './session';

/**
 * Unauthenticated visitors (or the other role) go to /; a session the automatic logoff ended goes
 * to its role's login page, which says why. Renders nothing until the session is read.
 */
export function RequireSession({ role, children }: { role?: Role; children: ReactNode }) {
  const { isLoading, isAuthenticated, role: current } = useSession();
  if (isLoading) return null;
  if (!isAuthenticated) {
    const idle = idleSignedOutRole();
    return <Navigate to={idle ? `/login/${idle}` : '/'} replace />;
  }
  if (role && current !== role) return <Navigate to="/" replace />;
  return <>{children}</>;
}
