import { useId, type ComponentProps, type InputHTMLAttributes } from 'react';
import { get, useFormContext, useFormState, useWatch, type FieldError as FormError } from 'react-hook-form';
import styled from 'styled-components';
import { Button } from './components';
import { Area, Input, Label, Select } from './inputs';
import { theme } from './theme';

const ErrorText = styled.small`
  display: block;
  margin: -0.6rem 0 0.9rem;
  color: ${theme.color.danger};
  font-weight: 600;
`;

/** The error react-hook-form holds for a field ('address.city' reads the nested one), and its element's id. */
function useFieldError(name: string, describedBy?: string) {
  const { formState } = useFormContext();
  const message = (get(formState.errors, name) as FormError | undefined)?.message;
  const errorId = useId();
  const describers = [message ? errorId : undefined, describedBy].filter(Boolean).join(' ');
  return {
    message,
    errorId,
    describe: { 'aria-invalid': message ? true : undefined, 'aria-describedby': describers || undefined },
  };
}

const FieldError = ({ id, message, alert }: { id: string; message?: string; alert?: boolean }) =>
  message ? (
    <ErrorText id={id} role={alert ? 'alert' : undefined}>
      {message}
    </ErrorText>
  ) : null;

/** alertOnError: the error is announced as it appears (role alert), for forms where it is the only thing that changes. */
interface ErrorOptions {
  alertOnError?: boolean;
}

type FormInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'onChange' | 'value' | 'defaultValue'>;

/**
 * register(name), checking the field again at each change once it shows an error: the error goes
 * as soon as the value is valid (react-hook-form re-checks on change only after a submit, and a
 * step's Next is no submit).
 */
function useFieldRegistration(name: string) {
  const { register, trigger, getFieldState } = useFormContext();
  const registered = register(name);
  return {
    ...registered,
    onChange: async (event: { target: unknown; type?: unknown }) => {
      const result = await registered.onChange(event);
      if (getFieldState(name).invalid) void trigger(name);
      return result;
    },
  };
}

/**
 * The fields of a react-hook-form form (inside its FormProvider), by field name. Each shows its
 * own error under it, tied to the input with aria-invalid and aria-describedby; the label stays
 * the field's accessible name.
 */
export function FormTextField({
  name,
  label,
  alertOnError,
  describedBy,
  ...rest
}: FormInputProps &
  ErrorOptions & {
    name: string;
    label: string;
    /** the id of more text about the field, after its error */ describedBy?: string;
  }) {
  const registration = useFieldRegistration(name);
  const { message, errorId, describe } = useFieldError(name, describedBy);
  const id = useId();
  return (
    <>
      <Label htmlFor={id}>
        {label}
        <Input
          id={id}
          {...rest}
          {...describe}
          aria-describedby={[describe['aria-describedby'], rest['aria-describedby']].filter(Boolean).join(' ') || undefined}
          {...registration}
        />
      </Label>
      <FieldError id={errorId} message={message} alert={alertOnError} />
    </>
  );
}

export function FormTextAreaField({
  name,
  label,
  required,
  alertOnError,
}: ErrorOptions & { name: string; label: string; required?: boolean }) {
  const registration = useFieldRegistration(name);
  const { message, errorId, describe } = useFieldError(name);
  const id = useId();
  return (
    <>
      <Label htmlFor={id}>
        {label}
        <Area id={id} required={required} {...describe} {...registration} />
      </Label>
      <FieldError id={errorId} message={message} alert={alertOnError} />
    </>
  );
}

const HintText = styled.small`
  display: block;
  margin: -0.6rem 0 0.9rem;
  color: ${theme.color.muted};
`;

/** A line of guidance under a field (the field names it with aria-describedby). */
export const FieldHint = ({ id, children }: { id: string; children: string }) => <HintText id={id}>{children}</HintText>;

const CheckLabel = styled.label`
  display: flex;
  gap: 0.5rem;
  align-items: center;
  margin: -0.4rem 0 0.9rem;
  font-size: 0.95rem;
`;

/** A tick box of a react-hook-form form, by field name (a boolean). */
export function FormCheckboxField({ name, label }: { name: string; label: string }) {
  const { register } = useFormContext();
  return (
    <CheckLabel>
      <input type="checkbox" {...register(name)} />
      {label}
    </CheckLabel>
  );
}

/** A choice among options; 'Select…' is offered while nothing is chosen. `optionLabels` names an option where its value is terse. */
export function FormSelectField({
  name,
  label,
  options,
  optionLabels,
  alertOnError,
  'aria-describedby': hintId,
}: ErrorOptions & {
  name: string;
  label: string;
  options: readonly string[];
  optionLabels?: Record<string, string>;
  'aria-describedby'?: string;
}) {
  const registration = useFieldRegistration(name);
  const value: unknown = useWatch({ name });
  const { message, errorId, describe } = useFieldError(name);
  const id = useId();
  return (
    <>
      <Label htmlFor={id}>
        {label}
        <Select
          id={id}
          {...describe}
          aria-describedby={[describe['aria-describedby'], hintId].filter(Boolean).join(' ') || undefined}
          {...registration}
        >
          {!value && <option value="">Select…</option>}
          {options.map((o) => (
            <option key={o} value={o}>
              {optionLabels?.[o] ?? o}
            </option>
          ))}
        </Select>
      </Label>
      <FieldError id={errorId} message={message} alert={alertOnError} />
    </>
  );
}

/** A form's submit button (here, with the form's fields: a page without a form never loads react-hook-form): busy while the form's onSubmit runs (from the FormProvider around it). */
export function SubmitButton(props: Omit<ComponentProps<typeof Button>, 'type' | 'busy'>) {
  const { isSubmitting } = useFormState();
  return <Button {...props} type="submit" busy={isSubmitting} />;
}
