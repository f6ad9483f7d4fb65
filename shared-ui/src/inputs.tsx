import { useId, type InputHTMLAttributes } from 'react';
import styled from 'styled-components';
import { theme } from './theme';

// Plain inputs, apart from the form fields (fields.tsx) that read a react-hook-form form: a page
// with a filter or a one-field action loads no form library.

export const Label = styled.label`
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
export const Input = styled.input`
  ${inputLook}
`;
export const Select = styled.select`
  ${inputLook}
`;
export const Area = styled.textarea`
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
