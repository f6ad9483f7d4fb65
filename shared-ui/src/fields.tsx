import { useId, type InputHTMLAttributes } from 'react';
import { get, useFormContext, useWatch, type FieldError as FormError } from 'react-hook-form';
import styled from 'styled-components';
import { theme } from './theme';

const Label = styled.label`
  display: block;
  margin-bottom: 0.9rem;
  font-weight: 600;
  font-size: 0.95rem;
`;

const inputLook = `
  display: block;
  width: 100%;
  margin-top: 0.3rem;
  padding: 0.55rem 0.7rem;
  border: 1px solid ${theme.color.border};
  border-radius: 8px;
  font: inherit;
  font-weight: 400;
  background: #fff;
`;
const Input = styled.input`
  ${inputLook}
`;
const Select = styled.select`
  ${inputLook}
`;
const Area = styled.textarea`
  ${inputLook} min-height: 5rem;
  resize: vertical;
`;

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'>;

export function TextField({
  label,
  value,
  onChange,
  ...rest
}: InputProps & { label: string; value: string | number; onChange(value: string): void }) {
  const id = useId();
  return (
    <Label htmlFor={id}>
      {label}
      <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
    </Label>
  );
}

/** A plain controlled select for a view filter (not a form): each option's value is an id, its label what a person reads. */
export function PickerField({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <Label htmlFor={id}>
      {label}
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </Label>
  );
}

const ErrorText = styled.small`
  display: block;
  margin: -0.6rem 0 0.9rem;
  color: ${theme.color.danger};
  font-weight: 600;
`;

/** The error react-hook-form holds for a field ('address.city' reads the nested one), and its element's id. */
function useFieldError(name: string) {
  const { formState } = useFormContext();
  const message = (get(formState.errors, name) as FormError | undefined)?.message;
  const errorId = useId();
  return {
    message,
    errorId,
    describe: { 'aria-invalid': message ? true : undefined, 'aria-describedby': message ? errorId : undefined },
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
 * The fields of a react-hook-form form (inside its FormProvider), by field name. Each shows its
 * own error under it, tied to the input with aria-invalid and aria-describedby; the label stays
 * the field's accessible name.
 */
export function FormTextField({
  name,
  label,
  alertOnError,
  ...rest
}: FormInputProps & ErrorOptions & { name: string; label: string }) {
  const { register } = useFormContext();
  const { message, errorId, describe } = useFieldError(name);
  const id = useId();
  return (
    <>
      <Label htmlFor={id}>
        {label}
        <Input id={id} {...rest} {...describe} {...register(name)} />
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
  const { register } = useFormContext();
  const { message, errorId, describe } = useFieldError(name);
  const id = useId();
  return (
    <>
      <Label htmlFor={id}>
        {label}
        <Area id={id} required={required} {...describe} {...register(name)} />
      </Label>
      <FieldError id={errorId} message={message} alert={alertOnError} />
    </>
  );
}

/** A choice among options; 'Select…' is offered while nothing is chosen. */
export function FormSelectField({
  name,
  label,
  options,
  alertOnError,
}: ErrorOptions & { name: string; label: string; options: readonly string[] }) {
  const { register } = useFormContext();
  const value: unknown = useWatch({ name });
  const { message, errorId, describe } = useFieldError(name);
  const id = useId();
  return (
    <>
      <Label htmlFor={id}>
        {label}
        <Select id={id} {...describe} {...register(name)}>
          {!value && <option value="">Select…</option>}
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </Select>
      </Label>
      <FieldError id={errorId} message={message} alert={alertOnError} />
    </>
  );
}
