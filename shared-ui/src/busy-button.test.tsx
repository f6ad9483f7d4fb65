import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { z } from 'zod';
import { Button } from './components';
import { SubmitButton } from './fields';
import { SchemaForm } from './SchemaForm';
import { useSchemaForm } from './formSchemas';

test('a busy button is disabled, marked aria-busy, and carries a spinner', () => {
  const { rerender } = render(<Button busy>Save</Button>);
  const button = screen.getByRole('button', { name: 'Save' });
  expect(button).toBeDisabled();
  expect(button).toHaveAttribute('aria-busy', 'true');
  expect(screen.getByTestId('spinner')).toHaveAttribute('aria-hidden', 'true');
  rerender(<Button>Save</Button>);
  expect(button).toBeEnabled();
  expect(button).not.toHaveAttribute('aria-busy');
  expect(screen.queryByTestId('spinner')).toBeNull();
});

function SlowForm({ done }: { done: Promise<void> }) {
  const form = useSchemaForm(z.object({ name: z.string() }), { name: 'Asha' });
  return (
    <SchemaForm form={form} onSubmit={() => done}>
      <SubmitButton>Save</SubmitButton>
    </SchemaForm>
  );
}

test('a submit button is busy exactly while its form is submitting', async () => {
  let finish!: () => void;
  render(<SlowForm done={new Promise<void>((r) => (finish = r))} />);
  const button = screen.getByRole('button', { name: 'Save' });
  fireEvent.click(button);
  await waitFor(() => expect(button).toHaveAttribute('aria-busy', 'true'));
  finish();
  await waitFor(() => expect(button).not.toHaveAttribute('aria-busy'));
  expect(button).toBeEnabled();
});
