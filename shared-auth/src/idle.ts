import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { logoutOnServer } from './auth';
import { useSession } from './session';
import { noteAutomaticSignOut } from './signed-out';

/*
 * Automatic logoff (HIPAA §164.312(a)(2)(iii)): after `idleTimeoutMinutes` (runtime config,
 * default 15) without pointer, key, scroll or focus activity in ANY tab of the app, the session
 * ends on the server and here; the last WARNING_SECONDS show a warning with "Stay signed in".
 * Tabs share the moment of the last activity through localStorage, so one active tab keeps the
 * others alive. Drafts of long forms are kept by the api (drafts.ts), so none stays in the browser.
 * The api enforces its own idle limit (SESSION_IDLE_MINUTES); this timer is the courtesy that warns first.
 */

export const DEFAULT_IDLE_TIMEOUT_MINUTES = 15;
export const IDLE_WARNING_SECONDS = 60;
const ACTIVITY_KEY = 'careloop.lastActivity';
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'scroll', 'focus', 'touchstart'] as const;

let idleMinutes = DEFAULT_IDLE_TIMEOUT_MINUTES;

/** From runtime-config.json's idleTimeoutMinutes; anything not a positive number keeps the default. */
export function configureIdleTimeout(minutes: unknown): void {
  idleMinutes = typeof minutes === 'number' && Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_IDLE_TIMEOUT_MINUTES;
}
export const idleTimeoutMinutes = () => idleMinutes;

export { clearIdleSignOutNotice, idleSignedOutRole, idleSignOutNotice } from './signed-out';

const storedActivity = () => Number(localStorage.getItem(ACTIVITY_KEY)) || 0;

/**
 * Mounted once by the shell while signed in. Answers the seconds left while the warning shows
 * (null otherwise) and `staySignedIn`, which counts as activity.
 */
export function useIdleLogoff(): { secondsLeft: number | null; staySignedIn(): void } {
  const { isAuthenticated } = useSession();
  const queryClient = useQueryClient();
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const last = useRef(0);

  const pointer = useRef({ x: NaN, y: NaN });

  const markActive = (e?: Event) => {
    if (e instanceof MouseEvent && e.type === 'pointermove') {
      // The browser re-checks hover when the page changes under a pointer that did not move (the
      // warning appearing or going), at a moment of its own. The position is noted wherever it is,
      // the warning included, so that re-check is never mistaken for a move.
      const moved = e.screenX !== pointer.current.x || e.screenY !== pointer.current.y;
      pointer.current = { x: e.screenX, y: e.screenY };
      if (!moved) return;
    }
    // While the warning shows, only its button brings the person back (staySignedIn): the focus it
    // moves to that button, or a move over it, are not activity.
    if (e?.target instanceof Element && e.target.closest('[data-idle-warning]')) return;
    const now = Date.now();
    // At most one write a second: pointermove fires far more often.
    if (now - last.current < 1000) return;
    last.current = now;
    localStorage.setItem(ACTIVITY_KEY, String(now));
  };

  useEffect(() => {
    if (!isAuthenticated) return;
    // A fresh start: a stale moment from an earlier session must not end this one at once.
    last.current = 0;
    markActive();
    const timeoutMs = idleMinutes * 60_000;

    function check() {
      const idle = Date.now() - Math.max(last.current, storedActivity());
      const remaining = timeoutMs - idle;
      if (remaining <= 0) return expire();
      setSecondsLeft(remaining <= IDLE_WARNING_SECONDS * 1000 ? Math.ceil(remaining / 1000) : null);
    }
    function expire() {
      const { role, token, logout } = useSession.getState();
      if (role) noteAutomaticSignOut(role, idleMinutes);
      if (role && token) void logoutOnServer(role, token);
      // Signed out here; RequireSession then sends every open page of the app to the login page.
      logout();
      queryClient.clear();
      setSecondsLeft(null);
    }

    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, markActive, { capture: true, passive: true });
    const timer = window.setInterval(check, 1000);
    return () => {
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, markActive, { capture: true });
      window.clearInterval(timer);
      setSecondsLeft(null);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per signed-in session
  }, [isAuthenticated]);

  return {
    secondsLeft,
    staySignedIn() {
      last.current = 0;
      markActive();
      setSecondsLeft(null);
    },
  };
}
