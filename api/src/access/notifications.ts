import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  NOTIFICATION_KINDS_OF,
  notificationTitle,
  type Notification,
  type NotificationKind,
  type NotificationPage,
  type NotificationPerson,
  type NotificationPreference,
  type Role,
} from '@careloop/shared-contracts';
import type { Clock } from '../adapters/clock';
import type { Db, Queryable } from '../adapters/db';
import { enqueueMail } from '../adapters/mail-outbox';
import { accountTables, notificationPreferences, notifications, patients } from '../db/schema';
import type { SecretBox } from '../lib/secret-box';
import { HttpError } from '../lib/errors';
import { NOTIFICATION_KIND_NOT_YOURS, NOTIFICATION_NOT_FOUND } from './messages';
import type { Caller } from './caller';

/*
 * Notifications: what happened that concerns an account (a connection request, its answer, a
 * patient ending a doctor's access, a new record or prescription for a patient).
 *
 *  - WRITTEN by notify(), inside the transaction of the event itself (accepting a request, a
 *    record's insert, …), with the row of its e-mail in mail_outbox when the account wants it
 *    e-mailed: the event, its notification and its e-mail commit together or not at all. The
 *    app's mail queue sends the e-mail after the commit (Notifier.flush) and keeps trying while
 *    the mailer is down (adapters/mail-queue.ts): nothing is lost.
 *  - READ and MARKED only by their own account (NotificationAccess): every statement is scoped to
 *    the caller's role and account, so another account's notification answers 404 like a missing one.
 *
 * E-mails carry no clinical content and, to doctors, no patient's identity: they say that
 * something happened and where to sign in; the inbox says who.
 */

/** What a notification needs of the app: the key its e-mail is sealed with, the web app's address, the mail queue. */
export interface Notifier {
  box: SecretBox;
  webOrigin: string;
  /** After the commit of the event: sends what notify() put in the outbox (a no-op when nothing). */
  flush(): void;
  /** set by notify() when it queued an e-mail */
  queued: boolean;
}

interface MailQueueHandle {
  retryNow(): Promise<void>;
}
interface BackgroundHandle {
  run(label: string, task: () => Promise<unknown>): void;
}

/** A request's notifier: its e-mails go out through the app's mail queue once the answer is sent. */
export function notifierFor(
  deps: { secretBox: SecretBox; config: { webOrigin: string } },
  app: { mailQueue: MailQueueHandle; backgroundTasks: BackgroundHandle },
): Notifier {
  const notifier: Notifier = {
    box: deps.secretBox,
    webOrigin: deps.config.webOrigin,
    queued: false,
    flush() {
      if (!notifier.queued) return;
      notifier.queued = false;
      app.backgroundTasks.run('notification e-mail', () => app.mailQueue.retryNow());
    },
  };
  return notifier;
}

/**
 * Who the notification is about: an account (its name and e-mail as they are now, and a patient's
 * date of birth when `withBirthDate`), or only an address the recipient typed (a declined request:
 * the recipient never learnt the addressee's name).
 */
export type About = { role: Role; accountId: string; withBirthDate?: boolean } | { email: string };

export interface NotificationEvent {
  to: { role: Role; accountId: string };
  kind: NotificationKind;
  about: About;
  /** the record or prescription it is about */
  entityId?: string | null;
  at: Date;
}

/**
 * Writes the notification, and its e-mail when the recipient's address is verified and they did
 * not turn that kind's e-mail off. Call it inside the event's transaction; call the notifier's
 * flush() after the commit.
 */
export async function notify(tx: Queryable, notifier: Notifier, e: NotificationEvent): Promise<void> {
  if (!(NOTIFICATION_KINDS_OF[e.to.role] as readonly NotificationKind[]).includes(e.kind)) {
    throw new Error(`a ${e.to.role} gets no ${e.kind} notification`);
  }
  const person = await personOf(tx, e.about);
  await tx.insert(notifications).values({
    role: e.to.role,
    accountId: e.to.accountId,
    kind: e.kind,
    personName: person.name,
    personEmail: person.email,
    personDob: person.DOB,
    entityId: e.entityId ?? null,
    createdAt: e.at,
  });
  const t = accountTables[e.to.role];
  const p = notificationPreferences;
  const [recipient] = await tx
    .select({ email: t.email, verifiedAt: t.emailVerifiedAt, wantsEmail: p.email })
    .from(t)
    .leftJoin(p, and(eq(p.role, e.to.role), eq(p.accountId, t.id), eq(p.kind, e.kind)))
    .where(eq(t.id, e.to.accountId))
    .limit(1);
  // Never to an address nobody proved (the api is no relay); e-mail is on unless turned off.
  if (!recipient?.verifiedAt || recipient.wantsEmail === false) return;
  const mail = notificationMail(e.kind, person, e.to.role, notifier.webOrigin);
  await enqueueMail(tx, notifier.box, { to: recipient.email, ...mail }, e.at);
  notifier.queued = true;
}

async function personOf(tx: Queryable, about: About): Promise<NotificationPerson> {
  if ('email' in about) return { name: '', email: about.email, DOB: null };
  const t = accountTables[about.role];
  const [row] = await tx.select({ name: t.name, email: t.email }).from(t).where(eq(t.id, about.accountId)).limit(1);
  if (!row) throw new Error(`no ${about.role} ${about.accountId} to name in a notification`);
  let DOB: string | null = null;
  if (about.role === 'patient' && about.withBirthDate) {
    const [p] = await tx.select({ dob: patients.dob }).from(patients).where(eq(patients.id, about.accountId)).limit(1);
    DOB = p?.dob ?? null;
  }
  return { name: row.name, email: row.email, DOB };
}

/** A doctor's e-mail says what happened without naming the patient: the inbox, after sign-in, says who. */
const TO_DOCTOR: Record<(typeof NOTIFICATION_KINDS_OF)['doctor'][number], string> = {
  'request-received': 'A patient asked to connect with you',
  'request-accepted': 'A patient accepted your connection request',
  'request-declined': 'A connection request you sent was declined',
  'access-ended': 'A patient ended your access to their records',
};
const WHAT_TO_DO: Record<NotificationKind, string> = {
  'request-received': 'answer it',
  'request-accepted': 'see your connections',
  'request-declined': 'see your connections',
  'access-ended': 'see who',
  'new-record': 'read it',
  'new-prescription': 'read it',
};

/**
 * The e-mail of a notification: what happened in one plain sentence and where to sign in. No
 * clinical content ever (a new record is "a new medical record from Dr X"); to a doctor, no patient.
 */
export function notificationMail(
  kind: NotificationKind,
  person: NotificationPerson,
  role: Role,
  webOrigin: string,
): { subject: string; text: string } {
  const line = role === 'doctor' ? TO_DOCTOR[kind as keyof typeof TO_DOCTOR] : notificationTitle({ kind, person }, role);
  return {
    subject: `CareLoop: ${line}`,
    text: [
      'Hello,',
      '',
      `${line}.`,
      '',
      `Sign in to CareLoop to ${WHAT_TO_DO[kind]}: ${webOrigin}/login/${role}`,
      '',
      `You can choose which notifications are e-mailed to you on your notification settings page: ${webOrigin}/${role}/notifications/settings`,
      '',
      'CareLoop',
    ].join('\n'),
  };
}

// --- the account's own inbox -------------------------------------------------------------------

const mine = (caller: Caller) => and(eq(notifications.role, caller.role), eq(notifications.accountId, caller.accountId));

/**
 * One account's notifications and preferences. Deny by default: every statement is scoped to the
 * caller's own role and account; an id of anyone else's notification is answered as a missing one.
 */
export class NotificationAccess {
  constructor(
    private readonly db: Db,
    private readonly caller: Caller,
    private readonly now: Date,
  ) {}

  async list(page: number, limit: number): Promise<NotificationPage> {
    const n = notifications;
    const [rows, [{ total }], unread] = await Promise.all([
      this.db
        .select()
        .from(n)
        .where(mine(this.caller))
        .orderBy(desc(n.createdAt), desc(n.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ total: count() }).from(n).where(mine(this.caller)),
      this.unread(),
    ]);
    return { items: rows.map(toNotification), page, limit, total: Number(total), unread };
  }

  async unread(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(notifications)
      .where(and(mine(this.caller), isNull(notifications.readAt)));
    return Number(row?.n ?? 0);
  }

  /** Marks one of the caller's notifications read (again: no change); 404 for any other id. Answers the unread count. */
  async markRead(id: string): Promise<number> {
    const n = notifications;
    const found = await this.db
      .update(n)
      .set({ readAt: sql`coalesce(${n.readAt}, ${this.now.toISOString()}::timestamptz)` })
      .where(and(eq(n.id, id), mine(this.caller)))
      .returning({ id: n.id });
    if (found.length === 0) throw new HttpError(404, NOTIFICATION_NOT_FOUND);
    return this.unread();
  }

  async markAllRead(): Promise<number> {
    await this.db
      .update(notifications)
      .set({ readAt: this.now })
      .where(and(mine(this.caller), isNull(notifications.readAt)));
    return this.unread();
  }

  /** Every kind the caller's role receives, in the contract's order: e-mailed unless turned off. */
  async preferences(): Promise<NotificationPreference[]> {
    const p = notificationPreferences;
    const rows = await this.db
      .select({ kind: p.kind, email: p.email })
      .from(p)
      .where(and(eq(p.role, this.caller.role), eq(p.accountId, this.caller.accountId)));
    const off = new Set(rows.filter((r) => !r.email).map((r) => r.kind));
    return NOTIFICATION_KINDS_OF[this.caller.role].map((kind) => ({ kind, email: !off.has(kind) }));
  }

  /** Sets the e-mail of the kinds given (one statement: all or none); a kind the role never receives is a 400. */
  async setPreferences(given: NotificationPreference[]): Promise<NotificationPreference[]> {
    const own = NOTIFICATION_KINDS_OF[this.caller.role] as readonly NotificationKind[];
    if (given.some((g) => !own.includes(g.kind))) throw new HttpError(400, NOTIFICATION_KIND_NOT_YOURS);
    const p = notificationPreferences;
    await this.db
      .insert(p)
      .values(
        given.map((g) => ({
          role: this.caller.role,
          accountId: this.caller.accountId,
          kind: g.kind,
          email: g.email,
          updatedAt: this.now,
        })),
      )
      .onConflictDoUpdate({
        target: [p.role, p.accountId, p.kind],
        set: { email: sql`excluded.email`, updatedAt: sql`excluded.updated_at` },
      });
    return this.preferences();
  }
}

function toNotification(row: typeof notifications.$inferSelect): Notification {
  return {
    _id: row.id,
    kind: row.kind as NotificationKind,
    person: { name: row.personName, email: row.personEmail, DOB: row.personDob },
    entityId: row.entityId,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}

/** The notifications of a guarded request's caller, timed by the app's clock. */
export function notificationAccessFor(deps: { db: { db: Db }; clock: Clock }, request: FastifyRequest): NotificationAccess {
  if (!request.auth) throw new Error('route is missing an auth guard');
  return new NotificationAccess(deps.db.db, { role: request.auth.role, accountId: request.auth.accountId }, deps.clock.now());
}

/** What an account's notifications are wiped with (a takeover of an unverified account). */
export async function deleteNotificationsOf(tx: Queryable, role: Role, accountId: string): Promise<void> {
  await tx.delete(notifications).where(and(eq(notifications.role, role), eq(notifications.accountId, accountId)));
  await tx
    .delete(notificationPreferences)
    .where(and(eq(notificationPreferences.role, role), eq(notificationPreferences.accountId, accountId)));
}
