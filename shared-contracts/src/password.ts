import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from './constants';

/**
 * The shape of a new password: length only (NIST 800-63B 5.1.1.2, ASVS 2.1: no composition
 * rules). Whether it is guessable is judged by the api with zxcvbn (PASSWORD_MIN_SCORE), which
 * needs the account's name and e-mail and megabytes of dictionaries, so it is not in this schema.
 */
export const Password = z
  .string()
  .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters` });

/** zxcvbn's score (0–4) a new password must reach: 3 is "safely unguessable" (~10^8 guesses and up). */
export const PASSWORD_MIN_SCORE = 3;

/** The start of the api's refusal of a guessable password; the library's feedback follows it. */
export const WEAK_PASSWORD = 'This password is too easy to guess.';

/**
 * The words of an account that its password must not lean on (NIST's "context-specific words"),
 * given to zxcvbn as user inputs: the name and the e-mail, their pieces, and the pieces run
 * together ("zorblaxquintero" for "Dr. Zorblax Quintero"). Lower-case, as zxcvbn matches.
 * The web form and the api derive them alike.
 */
export function passwordUserInputs(...values: (string | undefined)[]): string[] {
  const words = new Set<string>();
  for (const value of values) {
    const v = value?.trim().toLowerCase();
    if (!v) continue;
    const [local, domain] = v.split('@');
    const pieces = local.split(/[\s._+-]+/).filter(Boolean);
    // One- and two-letter pieces ("dr", "uk") would only add noise.
    const long = pieces.filter((p) => p.length >= 3);
    const domainPieces = domain ? domain.split('.') : [];
    for (const word of [v, local, domain, ...long, pieces.join(''), long.join(''), ...domainPieces]) {
      if (word && word.length >= 3) words.add(word);
    }
  }
  return [...words];
}
