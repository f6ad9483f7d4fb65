import { z } from 'zod';
import { EntityId, page, type Role } from './common';

/**
 * What a notification tells its account:
 * - `request-received`: someone asked to connect (the addressee of a connection request);
 * - `request-accepted` / `request-declined`: the addressee answered the caller's request;
 * - `access-ended`: a patient ended the doctor's access to their records;
 * - `new-record` / `new-prescription`: a doctor wrote a medical record or a prescription for the patient.
 */
export const NOTIFICATION_KINDS = [
  'request-received',
  'request-accepted',
  'request-declined',
  'access-ended',
  'new-record',
  'new-prescription',
] as const;
export const NotificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKind>;

/** The kinds each role can receive, in the order the preferences page lists them. */
export const NOTIFICATION_KINDS_OF = {
  patient: ['request-received', 'request-accepted', 'request-declined', 'new-record', 'new-prescription'],
  doctor: ['request-received', 'request-accepted', 'request-declined', 'access-ended'],
} as const satisfies Record<Role, readonly NotificationKind[]>;

/**
 * The other person, as the account knew them when it happened (never looked up again): their
 * name and e-mail; a patient's date of birth where the doctor already saw it (accepted, access
 * ended). A declined request names only the address the sender typed (name empty).
 */
export const NotificationPerson = z.object({
  name: z.string(),
  email: z.string(),
  DOB: z.string().nullable(),
});
export type NotificationPerson = z.infer<typeof NotificationPerson>;

export const Notification = z.object({
  _id: EntityId,
  kind: NotificationKind,
  person: NotificationPerson,
  /** the record or prescription a `new-record` / `new-prescription` is about; null otherwise */
  entityId: EntityId.nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof Notification>;

/** GET /{role}/notifications: newest first, with the account's unread count. */
export const NotificationQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const NotificationPage = page(Notification).extend({ unread: z.number().int().min(0) });
export type NotificationPage = z.infer<typeof NotificationPage>;

export const UnreadNotifications = z.object({ unread: z.number().int().min(0) });
export type UnreadNotifications = z.infer<typeof UnreadNotifications>;

export const NotificationIdParams = z.strictObject({ notificationId: EntityId });

/** Per kind: whether it is also e-mailed (the inbox always shows it). Every kind of the role, e-mail on unless turned off. */
export const NotificationPreference = z.object({ kind: NotificationKind, email: z.boolean() });
export type NotificationPreference = z.infer<typeof NotificationPreference>;
export const NotificationPreferences = z.object({ preferences: z.array(NotificationPreference) });
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/** PUT /{role}/notification-preferences: some or all of the role's own kinds, each once. */
export const notificationPreferencesBody = (role: Role) =>
  z.strictObject({
    preferences: z
      .array(z.strictObject({ kind: z.enum(NOTIFICATION_KINDS_OF[role]), email: z.boolean() }))
      .min(1)
      .max(NOTIFICATION_KINDS_OF[role].length)
      .refine((list) => new Set(list.map((p) => p.kind)).size === list.length, { error: 'Each kind may appear once' }),
  });

/** "Dr. Mira Holt" as written, or "Dr Mira Holt" for a name given without the title. */
export const doctorTitle = (name: string) => (/^dr\b/i.test(name.trim()) ? name.trim() : `Dr ${name.trim()}`);

/**
 * The one line a notification reads as, for the account it was sent to (`role`): the inbox's
 * text. Names the other person as the account knew them; never anything clinical.
 */
export function notificationTitle(n: Pick<Notification, 'kind' | 'person'>, role: Role): string {
  // the other person: a doctor (to a patient) with their title, a patient by name
  const who = role === 'patient' ? doctorTitle(n.person.name) : n.person.name;
  switch (n.kind) {
    case 'request-received':
      return `${who} asked to connect with you`;
    case 'request-accepted':
      return `${who} accepted your connection request`;
    case 'request-declined':
      return `Your connection request to ${n.person.email} was declined`;
    case 'access-ended':
      return `${who} ended your access to their records`;
    case 'new-record':
      return `You have a new medical record from ${who}`;
    case 'new-prescription':
      return `You have a new prescription from ${who}`;
  }
}

/** Where the web app shows what a notification is about (null: nothing more to see). */
export function notificationLink(n: Pick<Notification, 'kind' | 'entityId'>, role: Role): string | null {
  switch (n.kind) {
    case 'request-received':
      return `/${role}/view-incoming-requests`;
    case 'request-accepted':
    case 'request-declined':
      return role === 'patient' ? '/patient/assign-doctors' : '/doctor/assign-patients';
    case 'access-ended':
      return null;
    case 'new-record':
      return n.entityId ? `/all-medical-records/${n.entityId}` : '/patient/all-medical-records';
    case 'new-prescription':
      return '/prescription';
  }
}
