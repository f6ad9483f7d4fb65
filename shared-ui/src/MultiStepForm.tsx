import { useState, type ReactNode } from 'react';
import { FormProvider, get, type FieldErrors, type FieldValues, type UseFormReturn } from 'react-hook-form';
import styled from 'styled-components';
import { serverError } from '@careloop/shared-auth';
import { Banner, Button, Row } from './components';
import { fieldErrorsFrom } from './formSchemas';
import { theme } from './theme';

export interface Step {
  title: string;
  /** the names of this step's fields ('address.city' for nested ones): Next checks only these */
  fields?: readonly string[];
  content: ReactNode;
}

const Steps = styled.ol`
  display: flex;
  gap: 0.4rem;
  list-style: none;
  padding: 0;
  margin: 0 0 1rem;
`;
/* Each step is a bar with its name under it; a long form (the record's eight steps) keeps the
   names for screen readers only, since eight do not fit a phone's width. */
const Dot = styled.li<{ $state: 'done' | 'current' | 'todo'; $named: boolean }>`
  flex: 1;
  min-width: 0;
  font-size: 0.8rem;
  color: ${({ $state }) => ($state === 'current' ? theme.color.text : theme.color.muted)};
  font-weight: ${({ $state }) => ($state === 'current' ? 600 : 400)};
  &::before {
    content: '';
    display: block;
    height: 6px;
    border-radius: 3px;
    margin-bottom: 0.3rem;
    background: ${({ $state }) => ($state === 'todo' ? theme.color.border : theme.color.primary)};
    opacity: ${({ $state }) => ($state === 'done' ? 0.55 : 1)};
  }
  ${({ $named }) =>
    $named
      ? ''
      : `span { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }`}
`;
const VisuallyHidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
`;
/** Up to this many steps show their names on screen. */
const NAMED_STEPS = 4;

/** A Finish the server refused: its `error` text, and whether it was placed beside a field. */
interface Failure {
  reason?: string;
  onField: boolean;
}

/**
 * Signup, profile edit and record creation (SPEC §4): Next / Back, Finish on the last step,
 * and submission only there. Next checks only the current step's fields and stays while one is
 * invalid; Back never checks. Finish checks the whole form, then calls onFinish with the
 * schema's output; if that rejects with a server error about a field, the error is shown beside
 * that field and the form goes back to its step. `failure` is the banner for any other error
 * (and, with bannerForFieldErrors, for those too).
 *
 * The steps' fields find the form through its FormProvider.
 */
export function MultiStepForm<Values extends FieldValues, Payload>({
  form,
  steps,
  onFinish,
  failure,
  bannerForFieldErrors,
  label,
  finishBlocked,
  step: controlledStep,
  onStepChange,
}: {
  form: UseFormReturn<Values, unknown, Payload>;
  steps: Step[];
  onFinish(payload: Payload): unknown;
  failure?(reason: string | undefined): ReactNode;
  bannerForFieldErrors?: boolean;
  label: string;
  /** Finish stays disabled (a stop alert without its override reason) */
  finishBlocked?: boolean;
  /** The step shown (0 = the first), when the caller keeps it (a draft resumed where it was left) */
  step?: number;
  onStepChange?(step: number): void;
}) {
  const methods = form as unknown as UseFormReturn<FieldValues, unknown, Payload>;
  const [ownIndex, setOwnIndex] = useState(0);
  const index = Math.min(Math.max(controlledStep ?? ownIndex, 0), steps.length - 1);
  const setIndex = (i: number) => (onStepChange ? onStepChange(i) : setOwnIndex(i));
  const [failed, setFailed] = useState<Failure | null>(null);
  const last = index === steps.length - 1;
  const step = steps[index];
  const stepOf = (field: string) =>
    Math.max(
      0,
      steps.findIndex((s) => s.fields?.includes(field)),
    );

  async function next() {
    const fields = step.fields ?? [];
    if (fields.length === 0 || (await methods.trigger(fields as string[]))) setIndex(index + 1);
  }

  const finish = methods.handleSubmit(
    async (payload) => {
      setFailed(null);
      try {
        await onFinish(payload);
      } catch (err) {
        const reason = await serverError(err);
        const placed = fieldErrorsFrom(
          reason,
          steps.flatMap((s) => s.fields ?? []),
        );
        for (const { field, message } of placed) methods.setError(field, { type: 'server', message });
        if (placed.length > 0) setIndex(stepOf(placed[0].field));
        setFailed({ reason, onField: placed.length > 0 });
      }
    },
    // Only reachable when a value was changed after its step was checked: show that step.
    (errors: FieldErrors) => {
      const first = steps.findIndex((s) => s.fields?.some((f) => get(errors, f)));
      if (first >= 0) setIndex(first);
    },
  );

  const showFailure = failed && failure && (!failed.onField || bannerForFieldErrors);
  return (
    <FormProvider {...methods}>
      <form
        aria-label={label}
        // The schema's messages are shown beside the fields instead of the browser's.
        noValidate
        onSubmit={(e) => {
          if (last && finishBlocked) return void e.preventDefault();
          if (last) return void finish(e);
          e.preventDefault();
          void next();
        }}
      >
        <Steps aria-label={`Step ${index + 1} of ${steps.length}`}>
          {steps.map((s, i) => (
            <Dot
              key={s.title}
              $state={i < index ? 'done' : i === index ? 'current' : 'todo'}
              $named={steps.length <= NAMED_STEPS}
              aria-current={i === index ? 'step' : undefined}
            >
              <span>
                {s.title}
                {i < index && <VisuallyHidden> (done)</VisuallyHidden>}
              </span>
            </Dot>
          ))}
        </Steps>
        <h2>{step.title}</h2>
        {step.content}
        {showFailure && <Banner tone="error">{failure(failed.reason)}</Banner>}
        <Row>
          {index > 0 && (
            <Button type="button" $variant="secondary" onClick={() => setIndex(index - 1)}>
              Back
            </Button>
          )}
          <Button type="submit" busy={last && methods.formState.isSubmitting} disabled={last && !!finishBlocked}>
            {last ? 'Finish' : 'Next'}
          </Button>
        </Row>
      </form>
    </FormProvider>
  );
}
