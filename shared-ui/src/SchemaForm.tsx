import type { ReactNode } from 'react';
import { FormProvider, type FieldValues, type UseFormReturn } from 'react-hook-form';

/**
 * A one-step form made with useSchemaForm: its fields find it through the FormProvider, and
 * onSubmit gets the schema's output only when every field is valid (errors show beside the
 * fields, not as the browser's bubbles).
 */
export function SchemaForm<Values extends FieldValues, Payload>({
  form,
  onSubmit,
  label,
  children,
}: {
  form: UseFormReturn<Values, unknown, Payload>;
  onSubmit(payload: Payload): unknown;
  label?: string;
  children: ReactNode;
}) {
  return (
    <FormProvider {...form}>
      <form aria-label={label} noValidate onSubmit={form.handleSubmit(async (payload) => void (await onSubmit(payload)))}>
        {children}
      </form>
    </FormProvider>
  );
}
