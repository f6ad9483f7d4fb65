import type { Role } from '@careloop/shared-contracts';
import { isRole } from '@careloop/shared-contracts/routes';

/*
 * Why the app signed someone out on its own, for the sign-in page it sends them to: the browser's
 * idle timer ran out (`role:<minutes>`), the api answered 401 "Session expired" (`role:expired`:
 * its idle or absolute limit ran out), or 401 to a session ended elsewhere (`role:ended`: signed out
 * from another device, a password change…). Kept in localStorage until the next sign-in.
 */
const NOTICE_KEY = 'careloop.signedOutIdle';
const EXPIRED = 'expired';
const ENDED = 'ended';

/** An automatic sign-out: the notice for the login page (drafts are kept by the api, none in the browser). */
export function noteAutomaticSignOut(role: Role, reason: number | typeof EXPIRED | typeof ENDED): void {
  localStorage.setItem(NOTICE_KEY, `${role}:${reason}`);
}

/** The server refused the session: ran out (`expired`), or ended elsewhere. */
export const noteSessionRefused = (role: Role, expired: boolean) => noteAutomaticSignOut(role, expired ? EXPIRED : ENDED);

/** The role whose session ended on its own, until the next sign-in. */
export function idleSignedOutRole(): Role | null {
  const role = localStorage.getItem(NOTICE_KEY)?.split(':')[0] ?? null;
  return isRole(role) ? role : null;
}

/** What the login page says about an automatic sign-out; null when there was none. */
export function idleSignOutNotice(): string | null {
  const reason = localStorage.getItem(NOTICE_KEY)?.split(':')[1];
  if (!reason) return null;
  if (reason === EXPIRED) return 'Your session expired. Please sign in again.';
  if (reason === ENDED) return 'You were signed out: this session was ended. Please sign in again.';
  return `You were signed out after ${reason} ${reason === '1' ? 'minute' : 'minutes'} without activity`;
}

/** Called on the next sign-in: the notice has been seen. */
export const clearIdleSignOutNotice = () => localStorage.removeItem(NOTICE_KEY);
