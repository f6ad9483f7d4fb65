import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Role } from 'shared-contracts';
import { useSession } from './session';

/**
 * Google sign-in comes back with ?token=…&role=… (SPEC §2, §7): adopt that session when the
 * role is the expected one, then drop the token from the address bar and history.
 * Returns true once there is nothing (left) to adopt.
 */
export function useSessionFromQuery(role: Role): boolean {
  const [params, setParams] = useSearchParams();
  const token = params.get('token');
  const matches = Boolean(token) && params.get('role') === role;
  const [done, setDone] = useState(!matches);
  useEffect(() => {
    if (!token) return;
    if (matches) useSession.getState().login(token, role);
    const rest = new URLSearchParams(params);
    rest.delete('token');
    rest.delete('role');
    setParams(rest, { replace: true });
    setDone(true);
  }, [token, matches, role, params, setParams]);
  return done;
}
