import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from '@careloop/shared-router';
import type { Role } from '@careloop/shared-contracts';
import { logoutOnServer } from './auth';
import { call } from './client';
import { useSession } from './session';

/**
 * POST /{role}/auth/exchange: the one-time code of a Google sign-in for a session. Sent outside the
 * current session, so its answer cannot replace the stored token by itself (see client.ts).
 */
export const exchangeHandoffCode = (role: Role, code: string) =>
  call(`${role}ExchangeHandoff`, { body: { code }, anonymous: true });

/**
 * - 'none': no hand-off in the address (or it is over): show the page.
 * - 'waiting': a code is being looked at or exchanged: show nothing yet.
 * - 'confirm': someone is signed in already: ask before anything changes.
 * - 'failed': the exchange after Switch failed; the current session is untouched.
 * - 'leaving': the exchange failed with nobody signed in: on the way to the login page's error.
 */
export type HandoffStep = 'none' | 'waiting' | 'confirm' | 'failed' | 'leaving';

export interface SessionHandoff {
  step: HandoffStep;
  /** the role of the session already in this browser (set while 'confirm' and 'failed') */
  signedInAs: Role | null;
  /** Exchange the code and replace the current session with the new one. */
  switchAccount(): void;
  /** Keep the current session; the code is dropped unused. */
  stay(): void;
}

/**
 * Google sign-in comes back with ?token=<one-time code>&role=… (SPEC §2, §7; issue 11). The value
 * is never used as a bearer token: it is taken off the address at once (history.replaceState, so it
 * stays out of history and the Referer) and exchanged for a session — right away when nobody is
 * signed in; otherwise only after the person agrees to switch, so a link cannot swap the session
 * under a signed-in user.
 */
export function useSessionHandoff(role: Role): SessionHandoff {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const loginPage = `/login/${role}`;
  const onLoginPage = useRef(false);
  onLoginPage.current = useLocation().pathname === loginPage;
  const queryClient = useQueryClient();
  // Read once: after the address is cleaned, the code lives only in this component's memory.
  const [code] = useState(() => (params.get('role') === role ? params.get('token') : null) || null);
  const [step, setStep] = useState<HandoffStep>(code ? 'waiting' : 'none');
  const [signedInAs, setSignedInAs] = useState<Role | null>(null);
  // Guards the single use against React running effects twice (StrictMode) and double clicks.
  const used = useRef(false);

  const hasParams = params.has('token') || params.has('role');
  useEffect(() => {
    if (!hasParams) return;
    const rest = new URLSearchParams(params);
    rest.delete('token');
    rest.delete('role');
    setParams(rest, { replace: true });
  }, [hasParams, params, setParams]);

  const redeem = useCallback(async () => {
    if (!code || used.current) return;
    used.current = true;
    setStep('waiting');
    const before = useSession.getState();
    try {
      const { token } = await exchangeHandoffCode(role, code);
      // Switching is leaving the other account: its session ends on the server too (awaited: the
      // client sends the stored token, which must still be the old one).
      if (before.token && before.role) await logoutOnServer(before.role, before.token);
      queryClient.clear();
      useSession.getState().login(token, role);
      setStep('none');
    } catch {
      if (before.isAuthenticated) setStep('failed');
      else {
        // Off the login page nothing more is shown here: the page behind its guard would
        // redirect to / before the login page's error appears.
        setStep(onLoginPage.current ? 'none' : 'leaving');
        void navigate(`${loginPage}?error=google_failed`, { replace: true });
      }
    }
  }, [code, role, loginPage, queryClient, navigate]);

  useEffect(() => {
    if (step !== 'waiting' || used.current) return;
    // The stored session is in the store from its creation (synchronous storage), loading or not.
    const { isAuthenticated, role: current } = useSession.getState();
    if (isAuthenticated) {
      setSignedInAs(current);
      setStep('confirm');
    } else void redeem();
  }, [step, redeem]);

  const stay = useCallback(() => {
    used.current = true;
    setStep('none');
  }, []);

  return { step, signedInAs, switchAccount: () => void redeem(), stay };
}
