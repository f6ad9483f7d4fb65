import { and, count, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { ConnectionRequest, Role } from '@careloop/shared-contracts';
import { selectRows, type Queryable } from '../../adapters/db';
import { connectionMisses, connectionRequests, doctors, patients } from '../../db/schema';
import { isUniqueViolation } from '../../lib/errors';
import { accountTables } from '../profiles/accounts';
import { assign, notify, registrationColumns, toRegistrationStatus, type Notifier } from '../../access';

export type RequestStatus = 'pending' | 'accepted' | 'rejected';
export type RequestAction = 'accept' | 'reject';

export const otherRole = (role: Role): Role => (role === 'doctor' ? 'patient' : 'doctor');

export interface Account {
  id: string;
  email: string;
  /** the e-mail was proven by the link mailed to it */
  verified: boolean;
}

const accountColumns = (role: Role) => {
  const t = accountTables[role];
  return { id: t.id, email: t.email, verifiedAt: t.emailVerifiedAt };
};
const toAccount = (row: { id: string; email: string; verifiedAt: Date | null } | undefined): Account | undefined =>
  row && { id: row.id, email: row.email, verified: row.verifiedAt !== null };

/**
 * lock: the row stays locked until the caller's transaction ends. FOR NO KEY UPDATE, not FOR UPDATE:
 * a request's foreign keys take KEY SHARE locks on both accounts, and two people asking each other
 * at once would otherwise deadlock instead of one getting "already pending".
 */
export async function findAccountById(
  db: Queryable,
  role: Role,
  id: string,
  { lock = false } = {},
): Promise<Account | undefined> {
  const t = accountTables[role];
  const query = db.select(accountColumns(role)).from(t).where(eq(t.id, id)).limit(1);
  const [row] = lock ? await query.for('no key update') : await query;
  return toAccount(row);
}

/** E-mails are stored lower-cased; the contract lower-cases the one given. */
export async function findAccountByEmail(db: Queryable, role: Role, email: string): Promise<Account | undefined> {
  const t = accountTables[role];
  const [row] = await db.select(accountColumns(role)).from(t).where(eq(t.email, email)).limit(1);
  return toAccount(row);
}

/** Requests the account sent since `since`, whatever became of them (the per-hour limit). */
/**
 * What the sender spent of the hourly limit since `since`: requests made (answered or cancelled
 * ones included) and requests that found no account, so unknown addresses cannot be probed freely.
 */
export async function countSentSince(db: Queryable, role: Role, accountId: string, since: Date): Promise<number> {
  const r = connectionRequests;
  const sender = role === 'doctor' ? r.doctorId : r.patientId;
  const made = db
    .select({ n: count() })
    .from(r)
    .where(and(eq(sender, accountId), eq(r.initiatedBy, role), gt(r.createdAt, since)));
  const m = connectionMisses;
  const missed = db
    .select({ n: count() })
    .from(m)
    .where(and(eq(m.role, role), eq(m.accountId, accountId), gt(m.at, since)));
  const [row] = await selectRows<{ n: number | string }>(db, sql`select (${made}) + (${missed}) as n`);
  return Number(row.n);
}

/**
 * A request that found no account: counted toward the sender's hourly limit (countSentSince). The
 * sender's misses older than an hour count for nothing any more and are dropped here.
 */
export async function recordMiss(db: Queryable, role: Role, accountId: string, now: Date): Promise<void> {
  const m = connectionMisses;
  await db.delete(m).where(and(eq(m.role, role), eq(m.accountId, accountId), lt(m.at, new Date(now.getTime() - 3_600_000))));
  await db.insert(m).values({ role, accountId, at: now });
}

/**
 * Inserts a pending request. false when one is already pending for the pair (either direction):
 * the partial unique index decides, so two simultaneous requests cannot both get in.
 */
export async function createRequest(
  db: Queryable,
  r: { doctorId: string; patientId: string; initiatedBy: Role; now: Date },
): Promise<boolean> {
  try {
    await db.insert(connectionRequests).values({
      doctorId: r.doctorId,
      patientId: r.patientId,
      initiatedBy: r.initiatedBy,
      status: 'pending',
      createdAt: r.now,
    });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/**
 * The account's pending requests, newest first. received: sent by the other role to this account;
 * sent: sent by this account (the addressee's name empty).
 */
export async function listPending(
  db: Queryable,
  role: Role,
  accountId: string,
  direction: 'received' | 'sent',
): Promise<ConnectionRequest[]> {
  const r = connectionRequests;
  const mine = role === 'doctor' ? r.doctorId : r.patientId;
  const sender = direction === 'sent' ? role : otherRole(role);
  const rows = await db
    .select({
      id: r.id,
      doctorName: doctors.name,
      doctorEmail: doctors.email,
      ...registrationColumns,
      patientName: patients.name,
      patientEmail: patients.email,
    })
    .from(r)
    .innerJoin(doctors, eq(doctors.id, r.doctorId))
    .innerJoin(patients, eq(patients.id, r.patientId))
    .where(and(eq(mine, accountId), eq(r.status, 'pending'), eq(r.initiatedBy, sender)))
    .orderBy(desc(r.createdAt), desc(r.id));
  // The sender typed the addressee's e-mail but has no right to their name before they accept
  // (issue 11): SPEC's shape is kept, the addressee's name left empty in the sender's list.
  const addressee = direction === 'sent' ? otherRole(role) : undefined;
  return rows.map((row) => ({
    _id: row.id,
    doctor: {
      name: addressee === 'doctor' ? '' : row.doctorName,
      email: row.doctorEmail,
      // The number names the doctor in a public register: withheld with the name, the state kept.
      registration:
        addressee === 'doctor' ? { register: null, number: null, verified: row.verifiedAt !== null } : toRegistrationStatus(row),
    },
    patient: { name: addressee === 'patient' ? '' : row.patientName, email: row.patientEmail },
  }));
}

export type ResponseOutcome =
  | 'accepted'
  | 'rejected'
  /** no such request, or the caller is not one of its two parties */
  | 'not_found'
  /** no longer pending */
  | 'answered'
  /** the sender tried to accept their own request */
  | 'sender_cannot_accept';

/**
 * Answers a request on behalf of one of its parties. The request row is locked, its status set
 * and (on accept) the assignment made in ONE transaction: either both happen or neither does.
 * Accepting for an already connected pair succeeds without a second assignment. The addressee's
 * answer notifies the sender (`notifier`, in the same transaction): an acceptance names the
 * addressee, a refusal only the address the sender typed. A sender cancelling tells nobody.
 */
export async function respondToRequest(
  db: Queryable,
  role: Role,
  accountId: string,
  requestId: string,
  action: RequestAction,
  now: Date,
  notifier?: Notifier,
): Promise<ResponseOutcome> {
  const r = connectionRequests;
  return db.transaction(async (tx) => {
    const [req] = await tx.select().from(r).where(eq(r.id, requestId)).limit(1).for('update');
    const party = req && (role === 'doctor' ? req.doctorId : req.patientId);
    // Someone else's request looks exactly like a missing one.
    if (!req || party !== accountId) return 'not_found';
    if (req.status !== 'pending') return 'answered';
    if (action === 'accept' && req.initiatedBy === role) return 'sender_cannot_accept';

    const status: RequestStatus = action === 'accept' ? 'accepted' : 'rejected';
    const updated = await tx
      .update(r)
      .set({ status, respondedAt: now })
      .where(and(eq(r.id, requestId), eq(r.status, 'pending')))
      .returning({ id: r.id });
    if (updated.length !== 1) return 'answered';
    if (action === 'accept') await assign(tx, req.doctorId, req.patientId, now);
    const sender = req.initiatedBy as Role;
    if (notifier && sender !== role) {
      const senderId = sender === 'doctor' ? req.doctorId : req.patientId;
      const addressee = await findAccountById(tx, role, accountId);
      await notify(tx, notifier, {
        to: { role: sender, accountId: senderId },
        kind: action === 'accept' ? 'request-accepted' : 'request-declined',
        about: action === 'accept' ? { role, accountId, withBirthDate: true } : { email: addressee?.email ?? '' },
        at: now,
      });
    }
    return status;
  });
}
