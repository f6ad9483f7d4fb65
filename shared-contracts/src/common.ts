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
