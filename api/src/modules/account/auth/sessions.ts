import { and, desc, eq, gt, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Role } from '@careloop/shared-contracts';
import type { Config } from '../../../config';
import type { Db, Queryable } from '../../../adapters/db';
import { accountTables, sessions } from '../../../db/schema';
import { dbNowPlus } from '../../../lib/db-clock';
import { hashToken, newToken } from '../../../lib/tokens';

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

/** The idle and absolute limits of a session (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS). */
export type SessionLimits = Pick<Config, 'sessionIdleMinutes' | 'sessionMaxHours'>;

/** What the sessions page shows of the device a session was started on. */
export interface SessionDevice {
  userAgent: string;
  ip: string;
}

/** The device of a request: request.ip honours TRUST_PROXY. */
export function deviceOf(request: FastifyRequest): SessionDevice {
  return { userAgent: (request.headers['user-agent'] ?? '').slice(0, 512), ip: request.ip };
}

/** A session whose last request is older than this is slid forward by the next one (one write a minute at most). */
const SLIDE_AFTER_MS = 60_000;

/**
 * Stores a new session (its token's hash only) and returns the token for the client. Its expiry is
 * the DATABASE's now() + the lifetime (lib/db-clock.ts): a process clock running fast cannot stretch it.
 */
export async function createSession(
  db: Queryable,
  role: Role,
  accountId: string,
  now: Date,
  maxHours: number,
  device: SessionDevice,
): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    role,
    accountId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: dbNowPlus(maxHours * 3_600_000),
    userAgent: device.userAgent,
    ip: device.ip,
  });
  return token;
}

/**
 * The condition of a live session, its token hash, the earliest creation time and the earliest last
 * request still live by the process's clock as the placeholders `tokenHash`, `issuedAfter` and
 * `seenAfter` of a prepared statement; the absolute expiry is also compared with the database's now()
 * (lib/db-clock.ts). last_seen_at is written with the process's clock, like created_at, so the idle
 * limit is measured by that clock alone (one column cannot hold both clocks' times). With a role, only
 * that role's sessions. Shared by the guard's lookup and the statements that read a session together
 * with what its route needs (sessionRead).
 */
export function liveSession(role?: Role): SQL | undefined {
  return and(
    eq(sessions.tokenHash, sql.placeholder('tokenHash')),
    role ? eq(sessions.role, role) : undefined,
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, sql`now()`),
    gt(sessions.createdAt, sql.placeholder('issuedAfter')),
    gt(sessions.lastSeenAt, sql.placeholder('seenAfter')),
  );
}

/**
 * The sliding of the idle limit, as a data-modifying CTE to put in front of a session lookup: the
 * same statement moves last_seen_at to `now` when it is over a minute old, so an authenticated
 * request costs no extra round trip and the table is written at most once a minute per session.
 * (The lookup beside it sees the row as it was, which was live: the update matched it.)
 */
export function slideSession(db: Db, role?: Role) {
  return db.$with('touched').as(
    db
      .update(sessions)
      .set({ lastSeenAt: sql`${sql.placeholder('now')}::timestamptz` })
      .where(and(liveSession(role), lt(sessions.lastSeenAt, sql.placeholder('slideBefore'))))
      .returning({ id: sessions.id }),
  );
}

/** The placeholder values of liveSession() and slideSession() for a bearer token (`now` also fills a `now` placeholder). */
export const liveSessionParams = (token: string, now: Date, limits: SessionLimits) => ({
  tokenHash: hashToken(token),
  now: now.toISOString(),
  issuedAfter: new Date(now.getTime() - limits.sessionMaxHours * 3_600_000).toISOString(),
  seenAfter: new Date(now.getTime() - limits.sessionIdleMinutes * 60_000).toISOString(),
  slideBefore: new Date(now.getTime() - SLIDE_AFTER_MS).toISOString(),
});

function activeSessionQuery(db: Db) {
  const touched = slideSession(db);
  return db
    .with(touched)
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
export async function findActiveSession(db: Db, token: string, now: Date, limits: SessionLimits): Promise<Session | undefined> {
  let query = activeSessionQueries.get(db);
  if (!query) {
    query = activeSessionQuery(db);
    activeSessionQueries.set(db, query);
  }
  const [row] = await query.execute(liveSessionParams(token, now, limits));
  return row ? { ...row, role: row.role as Role } : undefined;
}

/**
 * Whether a token that is not live names a session that ran out (idle or absolute limit) rather
 * than an unknown or ended one. Asked only after the live lookup failed, so a good request pays nothing.
 */
export async function sessionRanOut(db: Queryable, token: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)))
    .limit(1);
  return row !== undefined;
}

/** A live session as the sessions page lists it. */
export interface LiveSessionRow {
  id: string;
  userAgent: string;
  ip: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/** The account's live sessions (neither ended nor past a limit), the most recently used first. */
export async function liveSessionsOf(
  db: Queryable,
  role: Role,
  accountId: string,
  now: Date,
  limits: SessionLimits,
): Promise<LiveSessionRow[]> {
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.role, role),
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.createdAt, new Date(now.getTime() - limits.sessionMaxHours * 3_600_000)),
        gt(sessions.lastSeenAt, new Date(now.getTime() - limits.sessionIdleMinutes * 60_000)),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
}

/** Ends one of the account's own sessions; false when it has no such live session (someone else's id included). */
export async function endOwnSession(
  db: Queryable,
  role: Role,
  accountId: string,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(eq(sessions.id, sessionId), eq(sessions.role, role), eq(sessions.accountId, accountId), isNull(sessions.revokedAt)),
    )
    .returning({ id: sessions.id });
  return ended.length > 0;
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
): Promise<number> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.role, role),
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return ended.length;
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
