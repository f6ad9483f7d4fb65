import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import type { Role } from 'shared-contracts';
import { useSession } from './session';

/** Unauthenticated visitors (or the other role) go to /. Renders nothing until the session is read. */
export function RequireSession({ role, children }: { role?: Role; children: ReactNode }) {
  const { isLoading, isAuthenticated, role: current } = useSession();
  if (isLoading) return null;
  if (!isAuthenticated || (role && current !== role)) return <Navigate to="/" replace />;
  return <>{children}</>;
}
