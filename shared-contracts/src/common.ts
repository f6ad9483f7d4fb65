import { z } from 'zod';
import { GENDERS, MARITAL_STATUSES, MODES_OF_ADMISSION, ROLES } from './constants';

export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** Every 4xx/5xx answer of the api has this shape. */
export const ErrorResponse = z.object({ error: z.string() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const EntityId = z.uuid({ error: 'Invalid id' });

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: 'Invalid e-mail address' }));

/**
 * A short line of free text a person typed (a name, a city, …). PostgreSQL cannot store NUL in
 * text, and no person types one: refused here, for every text field at once.
 */
export const Text = (max = 200) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(/^[^\u0000]*$/, { error: 'Text may not contain NUL characters' });
export const RequiredText = (max = 200) => Text(max).min(1, { error: 'Required' });

/**
 * Characters a name never needs and that can spoof one where it is shown to others (a doctor's
 * list, a connection request, a mail): C0/C1 controls (CR/LF, TAB), line and paragraph
 * separators, bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069, U+061C),
 * and zero-width or invisible format characters (U+200B–U+200F, U+2060–U+2064, U+FEFF).
 */
const NOT_IN_NAMES = /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;
export const PERSON_NAME_ERROR = 'A name may not contain control, invisible or text-direction characters';

/** A person's name (signup, profile edit): required, and none of the characters above. */
export const PersonName = RequiredText().refine((name) => !NOT_IN_NAMES.test(name), { error: PERSON_NAME_ERROR });

export const Gender = z.enum(GENDERS);
export type Gender = z.infer<typeof Gender>;

export const MaritalStatus = z.enum(MARITAL_STATUSES);
export type MaritalStatus = z.infer<typeof MaritalStatus>;

export const ModeOfAdmission = z.enum(MODES_OF_ADMISSION);

/** A calendar date as the browser's date input gives it: YYYY-MM-DD, a real day. */
export const CalendarDate = z.iso.date({ error: 'Invalid date (YYYY-MM-DD)' });

/** One page of a list, newest first (records, prescriptions, the access history). */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), page: z.number(), limit: z.number(), total: z.number() });
export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
}
