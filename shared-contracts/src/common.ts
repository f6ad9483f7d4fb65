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
 * zero-width or invisible format characters (U+200B–U+200F, U+2060–U+2064, U+FEFF, U+00AD,
 * U+034F, U+180E) and letters that render as blank space (Hangul fillers U+115F, U+1160, U+3164,
 * U+FFA0; Khmer U+17B4–U+17B5; the blank Braille pattern U+2800).
 */
const NOT_IN_NAMES =
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\u2800\u3164\uFEFF\uFFA0]|\u034F|\u17B4|\u17B5/; // combining marks: outside the class
export const PERSON_NAME_ERROR = 'A name may not contain control, invisible or text-direction characters';
export const PERSON_NAME_MIXED_SCRIPTS_ERROR =
  'A name may not mix alphabets within one word (for example Latin and Cyrillic letters that look alike)';
export const PERSON_NAME_STACKED_MARKS_ERROR = 'A name may not stack more than two accents on one letter';

/** The scripts a look-alike could come from; letters of other scripts are not compared. */
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Tamil',
  'Telugu',
  'Thai',
  'Ethiopic',
  'Hangul',
  'Han',
  'Hiragana',
  'Katakana',
] as const;
const SCRIPT_OF = SCRIPTS.map((name) => [name, new RegExp(`^\\p{Script=${name}}$`, 'u')] as const);
/** Scripts one word may combine: Japanese (kanji with kana) and Korean (hanja with hangul). */
const WRITTEN_TOGETHER = [new Set(['Han', 'Hiragana', 'Katakana']), new Set(['Han', 'Hangul'])];

/** True when one word of `name` mixes scripts no language writes together ("Аlice" with a Cyrillic А). */
export function mixesScripts(name: string): boolean {
  for (const word of name.split(/[\s\p{P}]+/u)) {
    const scripts = new Set<string>();
    for (const ch of word) for (const [script, re] of SCRIPT_OF) if (re.test(ch)) scripts.add(script);
    if (scripts.size > 1 && !WRITTEN_TOGETHER.some((group) => [...scripts].every((s) => group.has(s)))) return true;
  }
  return false;
}

/** A person's name (signup, profile edit): required, none of the characters above, one script per word, ≤ 2 marks per letter. */
export const PersonName = RequiredText().superRefine((name, ctx) => {
  if (NOT_IN_NAMES.test(name)) ctx.addIssue({ code: 'custom', message: PERSON_NAME_ERROR });
  else if (/\p{M}{3,}/u.test(name.normalize('NFD'))) ctx.addIssue({ code: 'custom', message: PERSON_NAME_STACKED_MARKS_ERROR });
  else if (mixesScripts(name)) ctx.addIssue({ code: 'custom', message: PERSON_NAME_MIXED_SCRIPTS_ERROR });
});

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
