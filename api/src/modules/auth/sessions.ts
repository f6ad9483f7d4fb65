import { and, eq, gt, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Role } from 'shared-contracts';
import type { Db, Queryable } from '../../adapters/db';
import { accountTables, sessions } from '../../db/schema';
import { dbNowPlus } from '../../lib/db-clock';
import { hashToken, newToken } from '../../lib/tokens';

export interface Session {
  id: string;
  role: Role;
  accountId: string;
  /** The account's two_factor_enabled, read in the session's own statement (the guard's MFA rule). */
  twoFactorEnabled: boolean;
}

/**
 * The session's account has two-factor on: a correlated subquery per role, so a session lookup
 * reads it in the same statement (no extra round trip per request).
 */
export function sessionTwoFactorSql(): SQL<boolean> {
  const perRole = Object.entries(accountTables).map(
    ([role, t]) => sql`when ${role} then (select ${t.twoFactorEnabled} from ${t} where ${t.id} = ${sessions.accountId})`,
  );
  return sql<boolean>`coalesce(case ${sessions.role} ${sql.join(perRole, sql` `)} end, false)`;
}

/**
 * Stores a new session (its token's hash only) and returns the token for the client. Its expiry is
 * the DATABASE's now() + the lifetime (lib/db-clock.ts): a process clock running fast cannot stretch it.
 */
export async function createSession(db: Queryable, role: Role, accountId: string, now: Date, ttlHours: number): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    role,
    accountId,
    createdAt: now,
    expiresAt: dbNowPlus(ttlHours * 3_600_000),
  });
  return token;
}

/**
 * The condition of a live session, its token hash and the earliest creation time still live by the
 * process's clock as the placeholders `tokenHash` and `issuedAfter` of a prepared statement; the
 * expiry is compared with the database's now() (lib/db-clock.ts). With a role, only that role's sessions. Shared by the guard's lookup
 * and the statements that read a session together with what its route needs (sessionRead).
 */
export function liveSession(role?: Role): SQL | undefined {
  return and(
    eq(sessions.tokenHash, sql.placeholder('tokenHash')),
    role ? eq(sessions.role, role) : undefined,
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, sql`now()`),
    gt(sessions.createdAt, sql.placeholder('issuedAfter')),
  );
}

/** The placeholder values of liveSession() for a bearer token (`now` also fills a `now` placeholder). */
export const liveSessionParams = (token: string, now: Date, ttlHours: number) => ({
  tokenHash: hashToken(token),
  now: now.toISOString(),
  issuedAfter: new Date(now.getTime() - ttlHours * 3_600_000).toISOString(),
});

function activeSessionQuery(db: Db) {
  return db
    .select({ id: sessions.id, role: sessions.role, accountId: sessions.accountId, twoFactorEnabled: sessionTwoFactorSql() })
    .from(sessions)
    .where(liveSession())
    .limit(1)
    .prepare('active_session_by_token');
}

// Every authenticated request runs this lookup: its SQL is built once per database handle and sent
// as a named prepared statement (node-postgres parses it once per connection; PGlite's worker names it by its text).
const activeSessionQueries = new WeakMap<Db, ReturnType<typeof activeSessionQuery>>();

/**
 * The live session of a token: not revoked and not expired, read on every request (no cache), so a
 * logout, a password change or a revocation holds from the very next request on every replica.
 */
export async function findActiveSession(db: Db, token: string, now: Date, ttlHours: number): Promise<Session | undefined> {
  let query = activeSessionQueries.get(db);
  if (!query) {
    query = activeSessionQuery(db);
    activeSessionQueries.set(db, query);
  }
  const [row] = await query.execute(liveSessionParams(token, now, ttlHours));
  return row ? { ...row, role: row.role as Role } : undefined;
}

export async function revokeSession(db: Queryable, sessionId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * Ends every live session of the account except `keepSessionId` (the caller's own; null ends all):
 * "sign out everywhere else", and what an e-mail, password or 2FA change or a recovery-code
 * sign-in does to the other devices.
 */
export async function endOtherSessions(
  db: Queryable,
  role: Role,
  accountId: string,
  keepSessionId: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.role, role),
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
      ),
    );
}

/** After a password change every device must sign in again. */
export async function revokeAllSessions(db: Queryable, role: Role, accountId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.role, role), eq(sessions.accountId, accountId), isNull(sessions.revokedAt)));
}

/** Expired rows are useless (lookups already ignore them); drop them so the table stays small. */
export async function deleteExpiredSessions(db: Queryable): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
}
