import type { Role } from '@careloop/shared-contracts';
import type { Queryable, Tx } from '../../../adapters/db';
import { consumeToken, issueToken, type TokenKind } from '../../../lib/one-time-token';

/**
 * A hand-off code lives 60 seconds: long enough for the browser to follow the redirect and post it
 * back, short enough that a code left in a history entry or a proxy log is dead.
 */
export const HANDOFF_TTL_MS = 60_000;

/** The hand-off code: tried once (any try spends it); dead codes are swept at once. */
export const HANDOFF_CODE: TokenKind = { purpose: 'handoff', lifetimeMs: HANDOFF_TTL_MS, keepMs: 0, spentByAnyTry: true };

/**
 * A new one-time code standing for a sign-in of the account; only its hash is stored. Bound to the
 * account's security version: a password, e-mail or verification change in the meantime voids it.
 */
export function issueHandoffCode(db: Queryable, role: Role, accountId: string, now: Date): Promise<string> {
  return issueToken(db, HANDOFF_CODE, { role, accountId, now });
}

/**
 * Spends a hand-off code, once: only one of two racing requests claims it. Any attempt spends it,
 * even for the wrong role: a code is tried once. The account id, or undefined for an unknown, used,
 * expired, unbound or other-role value (a session token or an e-mail link is not a code).
 */
export async function consumeHandoffCode(tx: Tx, role: Role, code: string, now: Date): Promise<string | undefined> {
  return (await consumeToken(tx, HANDOFF_CODE, { role, token: code }, now))?.accountId;
}
