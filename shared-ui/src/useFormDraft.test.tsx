import { fireEvent, render, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { draftKey, readDraft } from '@careloop/shared-auth';
import { useFormDraft } from './useFormDraft';

const DOCTOR = '7b2d2f5f-9b5c-4a1f-8b4a-3a2a6f2d1b55';
const PATIENT = '5a1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a44';
const KEY = draftKey(DOCTOR, 'prescription', PATIENT);

function DrugForm({ accountId }: { accountId: string | undefined }) {
  const form = useForm({ defaultValues: { prescribedDrug: '' } });
  const { restorePrompt } = useFormDraft(form, { accountId, form: 'prescription', patientId: PATIENT });
  return (
    <form>
      {restorePrompt}
      <label>
        Drug
        <input {...form.register('prescribedDrug')} />
      </label>
    </form>
  );
}

beforeEach(() => sessionStorage.clear());

test('what is typed before the account is known is saved as soon as it is', () => {
  const { rerender } = render(<DrugForm accountId={undefined} />);
  fireEvent.change(screen.getByLabelText('Drug'), { target: { value: 'Warfarin' } });
  expect(sessionStorage.length).toBe(0);
  rerender(<DrugForm accountId={DOCTOR} />);
  expect(readDraft(KEY)?.values).toEqual({ prescribedDrug: 'Warfarin' });
});

test('an untouched form saves nothing, then each change is saved', () => {
  render(<DrugForm accountId={DOCTOR} />);
  expect(readDraft(KEY)).toBeNull();
  fireEvent.change(screen.getByLabelText('Drug'), { target: { value: 'Amoxicillin' } });
  expect(readDraft(KEY)?.values).toEqual({ prescribedDrug: 'Amoxicillin' });
});

test('a draft on file is offered and not overwritten until the offer is answered; typing meanwhile is saved after Discard', () => {
  sessionStorage.setItem(KEY, JSON.stringify({ values: { prescribedDrug: 'Aspirin' }, savedAt: Date.now() }));
  render(<DrugForm accountId={DOCTOR} />);
  fireEvent.change(screen.getByLabelText('Drug'), { target: { value: 'Ibuprofen' } });
  expect(readDraft(KEY)?.values).toEqual({ prescribedDrug: 'Aspirin' });
  fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
  expect(readDraft(KEY)?.values).toEqual({ prescribedDrug: 'Ibuprofen' });
});
