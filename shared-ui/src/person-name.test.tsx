import { act, fireEvent, render, screen } from '@testing-library/react';
import { DoctorProfileUpdate, PatientSignup, PERSON_NAME_ERROR } from '@careloop/shared-contracts';
import { FormTextField } from './fields';
import { useSchemaForm } from './formSchemas';
import { MultiStepForm } from './MultiStepForm';

// The browser forms use the api's own schemas: a name the api refuses is refused beside the
// field, before anything is sent.
const NameOnly = PatientSignup.pick({ name: true });

function NameForm({ onFinish }: { onFinish(body: unknown): void }) {
  const form = useSchemaForm(NameOnly, { name: '' });
  return (
    <MultiStepForm
      label="Your name"
      form={form}
      failure={() => 'Could not save'}
      onFinish={async (body) => onFinish(body)}
      steps={[{ title: 'Who', fields: ['name'], content: <FormTextField name="name" label="Name" /> }]}
    />
  );
}

const finish = () =>
  act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  });

test.each([
  // (A text input drops CR/LF itself; the api refuses them: api/src/modules/profiles/names.test.ts.)
  ['a TAB', 'Eve\tSmith'],
  ['a C1 control', 'Eve\u0085Smith'],
  ['a right-to-left override (U+202E)', 'Dr \u202Eenoemos'],
  ['a zero-width space', 'Sm\u200Bith'],
])('a name with %s is refused beside the field, and nothing is submitted', async (_label, name) => {
  const onFinish = jest.fn();
  render(<NameForm onFinish={onFinish} />);
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
  await finish();
  expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  expect(screen.getByLabelText('Name')).toHaveAccessibleDescription(PERSON_NAME_ERROR);
  expect(onFinish).not.toHaveBeenCalled();
});

test('an ordinary name in any script is accepted', async () => {
  const onFinish = jest.fn();
  render(<NameForm onFinish={onFinish} />);
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: "Zoë O'Brien محمد" } });
  await finish();
  expect(onFinish).toHaveBeenCalledWith({ name: "Zoë O'Brien محمد" });
});

test('the edit schema applies the same rule', () => {
  expect(DoctorProfileUpdate.safeParse({ name: 'Dr \u2066Who' }).success).toBe(false);
  expect(DoctorProfileUpdate.safeParse({ name: 'Dr Who' }).success).toBe(true);
});
