import { useEffect, useId, useState, type ComponentProps } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { PASSWORD_MIN, WEAK_PASSWORD } from '@careloop/shared-contracts';
import styled from 'styled-components';
import { FormTextField } from './fields';
import type { PasswordJudgement } from './password-judge';
import { theme } from './theme';

type Judge = typeof import('./password-judge').judgePassword;
let judgeLoad: Promise<Judge> | undefined;
/**
 * zxcvbn and its dictionaries, fetched as their own chunk when a new-password field is first
 * focused or typed in (never for the first paint). Tests may await it up front.
 */
export function preloadPasswordJudge(): Promise<Judge> {
  if (!judgeLoad) {
    judgeLoad = import(/* webpackChunkName: "password-judge" */ './password-judge').then((m) => m.judgePassword);
    // A failed fetch is tried again on the next keystroke; the server judges every password anyway.
    judgeLoad.catch(() => (judgeLoad = undefined));
  }
  return judgeLoad;
}

// Typing fast should not run a dictionary check per key.
const SETTLE_MS = 150;

/**
 * The library's verdict on a new password as it is typed, against the account's own words (name,
 * e-mail): undefined while the field is empty or the dictionaries are still loading.
 */
export function usePasswordFeedback(password: string, accountWords: (string | undefined)[]): PasswordJudgement | undefined {
  const [judgement, setJudgement] = useState<PasswordJudgement | undefined>(undefined);
  const words = accountWords.join('\n');
  useEffect(() => {
    if (!password) {
      setJudgement(undefined);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      preloadPasswordJudge().then(
        (judge) => live && setJudgement(judge(password, words.split('\n'))),
        () => live && setJudgement(undefined),
      );
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [password, words]);
  return judgement;
}

const Feedback = styled.div<{ $strong: boolean }>`
  margin: -0.6rem 0 0.9rem;
  /* One line kept free: "Strong enough." appearing must not move the button below mid-click. */
  min-height: 1.5em;
  font-size: 0.875rem;
  color: ${({ $strong }) => ($strong ? theme.color.success : theme.color.text)};
  ul {
    margin: 0.2rem 0 0;
    padding-left: 1.2rem;
    color: ${theme.color.muted};
  }
`;

/** The one message under a password still too short: length comes before strength. */
export const TOO_SHORT = `At least ${PASSWORD_MIN} characters.`;

/**
 * What zxcvbn says of the password, shown under its field and read out politely as it changes;
 * while it is too short (`tooShort`), only that.
 */
export function PasswordFeedback({
  id,
  judgement,
  tooShort = false,
}: {
  id: string;
  judgement: PasswordJudgement | undefined;
  tooShort?: boolean;
}) {
  return (
    <Feedback id={id} aria-live="polite" $strong={!tooShort && !!judgement?.strong} data-testid="password-feedback">
      {tooShort
        ? TOO_SHORT
        : judgement &&
          (judgement.strong ? (
            'Strong enough.'
          ) : (
            <>
              {WEAK_PASSWORD}
              <ul>
                {judgement.feedback.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </>
          ))}
    </Feedback>
  );
}

/**
 * A field for choosing a password (signup, profile edit, reset), inside a react-hook-form form:
 * the library's feedback appears under it as the person types. `accountFields` name the form's
 * fields holding the account's words (name, e-mail) the password must not lean on.
 */
export function NewPasswordField({
  name,
  accountFields = [],
  ...field
}: Omit<ComponentProps<typeof FormTextField>, 'type' | 'autoComplete' | 'describedBy'> & { accountFields?: string[] }) {
  const { control, getFieldState, formState } = useFormContext();
  const password = (useWatch({ control, name }) as string | undefined) ?? '';
  const watched = useWatch({ control, name: accountFields }) as (string | undefined)[];
  const words = accountFields.length > 0 ? watched : [];
  const judgement = usePasswordFeedback(password, words);
  // The server knows words the form may not (the account behind a reset link): while its refusal
  // stands under the field, "Strong enough." would contradict it.
  // One message at a time: the field's own error (too short, or the server's refusal) alone; else
  // the length until it is long enough; then the strength.
  const refused = !!getFieldState(name, formState).error;
  const tooShort = password.length > 0 && password.length < PASSWORD_MIN;
  const feedbackId = useId();
  return (
    <>
      <FormTextField
        name={name}
        type="password"
        autoComplete="new-password"
        describedBy={feedbackId}
        onFocus={() => void preloadPasswordJudge().catch(() => undefined)}
        {...field}
      />
      <PasswordFeedback id={feedbackId} judgement={refused ? undefined : judgement} tooShort={!refused && tooShort} />
    </>
  );
}
