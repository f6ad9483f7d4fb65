import { useId, type InputHTMLAttributes } from 'react';
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
const Input = styled.input`${inputLook}`;
const Select = styled.select`${inputLook}`;
const Area = styled.textarea`${inputLook} min-height: 5rem; resize: vertical;`;

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'>;

export function TextField({
  label, value, onChange, ...rest
}: InputProps & { label: string; value: string | number; onChange(value: string): void }) {
  const id = useId();
  return (
    <Label htmlFor={id}>
      {label}
      <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
    </Label>
  );
}

export function TextAreaField({
  label, value, onChange, required,
}: { label: string; value: string; onChange(value: string): void; required?: boolean }) {
  const id = useId();
  return (
    <Label htmlFor={id}>
      {label}
      <Area id={id} value={value} required={required} onChange={(e) => onChange(e.target.value)} />
    </Label>
  );
}

export function SelectField<T extends string>({
  label, value, options, onChange, required,
}: { label: string; value: NoInfer<T> | ''; options: readonly T[]; onChange: NoInfer<(value: T) => void>; required?: boolean }) {
  const id = useId();
  return (
    <Label htmlFor={id}>
      {label}
      <Select id={id} value={value} required={required} onChange={(e) => onChange(e.target.value as T)}>
        {value === '' && <option value="">Select…</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </Select>
    </Label>
  );
}
