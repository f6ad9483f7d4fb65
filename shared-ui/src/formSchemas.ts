import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import { CURRENT_PASSWORD_WRONG, DUPLICATE_EMAIL, ownEntry } from '@careloop/shared-contracts';
import { splitList, withoutEmpty } from './forms';

/**
 * A react-hook-form form checked by the api's own zod schema; submit handlers get the schema's
 * output (the payload). The form holds what inputs hold (text, '' for nothing chosen) and the
 * schema's preprocess steps turn that into the payload, so the values' type is the defaults'
 * rather than the schema's input type.
 */
export function useSchemaForm<Values extends FieldValues, Schema extends z.ZodType>(schema: Schema, defaultValues: Values) {
  return useForm<Values, unknown, z.output<Schema>>({
    resolver: zodResolver(schema as never) as unknown as Resolver<Values, unknown, z.output<Schema>>,
    defaultValues: defaultValues as DefaultValues<Values>,
  });
}

/** A list typed as comma-separated text (SPEC §5), checked by the payload's list rules. */
export const listFromText = <Schema extends z.ZodType>(list: Schema) =>
  z.preprocess((v) => (typeof v === 'string' ? splitList(v) : v), list);

/** An optional field left empty in the form is absent from the payload. */
export const emptyAsUnset = <Schema extends z.ZodType>(field: Schema) => z.preprocess((v) => (v === '' ? undefined : v), field);

/**
 * A datetime-local input's value has no zone: it is the user's local time, sent as an instant
 * (ISO 8601 with Z). Anything unreadable is left for the schema to refuse.
 */
export const localTimeAsInstant = <Schema extends z.ZodType>(instant: Schema) =>
  z.preprocess((v) => {
    const time = typeof v === 'string' && v !== '' ? new Date(v) : null;
    return time && !Number.isNaN(time.getTime()) ? time.toISOString() : v;
  }, instant);

/** Profile edit: only what was filled in is checked and sent (SPEC §5). */
export const onlyFilledIn = <Schema extends z.ZodType>(update: Schema) =>
  z.preprocess((v) => (v && typeof v === 'object' ? withoutEmpty(v as Record<string, unknown>) : v), update);

/** The dotted names of a form's fields: { address: { city } } → ['address.city']. */
export function fieldNamesOf(values: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(values).flatMap(([key, value]) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? fieldNamesOf(value as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

/** Server texts that are about one field although the server does not name it. */
const FIELD_OF_MESSAGE: Record<string, string> = {
  [DUPLICATE_EMAIL]: 'email',
  [CURRENT_PASSWORD_WRONG]: 'currentPassword',
};

/**
 * The api's validation errors read "field.path: message; other.path: message". Returns the
 * errors that belong to one of `fields` (dotted names, as react-hook-form names them); an empty
 * list means the error belongs to no field of the form.
 */
export function fieldErrorsFrom(serverMessage: string | undefined, fields: readonly string[]) {
  if (!serverMessage) return [];
  const known = ownEntry(FIELD_OF_MESSAGE, serverMessage);
  if (known) return fields.includes(known) ? [{ field: known, message: serverMessage }] : [];
  return serverMessage.split('; ').flatMap((part) => {
    const at = part.indexOf(': ');
    const field = part.slice(0, at);
    return at > 0 && fields.includes(field) ? [{ field, message: part.slice(at + 2) }] : [];
  });
}
