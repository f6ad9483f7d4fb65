import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';
import { PASSWORD_MIN_SCORE, WEAK_PASSWORD, passwordUserInputs } from '@careloop/shared-contracts';
import { HttpError } from './errors';

// NIST 800-63B 5.1.1.2 / ASVS 2.1.7: refuse common, breached-style and guessable passwords.
// zxcvbn's lists hold the 30,000 most common leaked passwords, English words, names and keyboard
// walks; the score also catches l33t, dates, repeats and sequences. Length is the contract's rule,
// and there is no composition rule. Built once, on first use: the dictionaries take a second or two.
let estimator: ZxcvbnFactory | undefined;
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary },
    graphs: adjacencyGraphs,
    translations,
  });
  return estimator;
}

export interface PasswordVerdict {
  score: ZxcvbnResult['score'];
  strong: boolean;
  /** zxcvbn's warning and suggestions, in English; empty when strong */
  feedback: string[];
}

/** How guessable a new password is, given the words of its account (name, e-mail). */
export function judgePassword(password: string, accountWords: (string | undefined)[]): PasswordVerdict {
  const { score, feedback } = zxcvbn().check(password, passwordUserInputs(...accountWords));
  const strong = score >= PASSWORD_MIN_SCORE;
  return { score, strong, feedback: strong ? [] : [feedback.warning, ...feedback.suggestions].filter((s): s is string => !!s) };
}

/**
 * Every place a password is set calls this before hashing. Too guessable: 400 with the reason in
 * the validation errors' shape ("password: …"), so the web form shows it under the field.
 * The password itself is never part of the message or any log.
 */
export function requireStrongPassword(password: string, accountWords: (string | undefined)[]): void {
  const verdict = judgePassword(password, accountWords);
  if (!verdict.strong) {
    // '; ' separates fields in validation errors: keep the library's sentences apart with spaces.
    const reason = [WEAK_PASSWORD, ...verdict.feedback].join(' ').replaceAll('; ', ', ');
    throw new HttpError(400, `password: ${reason}`);
  }
}
