import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';
import { PASSWORD_MIN_SCORE, passwordUserInputs } from '@careloop/shared-contracts';

// Loaded only through import() (usePasswordFeedback): the dictionaries are megabytes and stay out
// of every page's first paint. The same library, lists and options as the api's judge
// (api/src/lib/password-strength.ts), so what the form says is what the server will decide.
const estimator = new ZxcvbnFactory({
  dictionary: { ...commonDictionary, ...englishDictionary },
  graphs: adjacencyGraphs,
  translations,
});

export interface PasswordJudgement {
  strong: boolean;
  /** zxcvbn's warning and suggestions; empty when strong */
  feedback: string[];
}

export function judgePassword(password: string, accountWords: (string | undefined)[]): PasswordJudgement {
  const { score, feedback } = estimator.check(password, passwordUserInputs(...accountWords));
  const strong = score >= PASSWORD_MIN_SCORE;
  return { strong, feedback: strong ? [] : [feedback.warning, ...feedback.suggestions].filter((s): s is string => !!s) };
}
