import { act, fireEvent, render, screen } from '@testing-library/react';
import { z } from 'zod';
import { configureApi, signup } from '@careloop/shared-auth';
import { PatientSignup } from '@careloop/shared-contracts';
import { startFakeApi } from '../../test-support/fake-api';
import { FormTextField } from './fields';
import { fieldErrorsFrom, fieldNamesOf, useSchemaForm } from './formSchemas';
import { MultiStepForm } from './MultiStepForm';

let fake: Awaited<ReturnType<typeof startFakeApi>>;
let signupReply: { status: number; body?: unknown } = { status: 201, body: { token: 't', role: 'patient' } };

beforeAll(async () => {
  fake = await startFakeApi({ 'POST /patient/signup': () => signupReply });
  configureApi(fake.url);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

const SignupFields = PatientSignup.pick({ name: true, email: true, password: true, occupation: true });

/** Two steps of the api's own signup schema: the account, then the occupation. */
function TwoStepSignup({ onDone }: { onDone(): void }) {
  const form = useSchemaForm(SignupFields, { name: '', email: '', password: '', occupation: '' });
  return (
    <MultiStepForm
      label="Signup"
      form={form}
      failure={() => 'Could not register. Try again?'}
      onFinish={async (body: z.output<typeof SignupFields>) => {
        await signup('patient', body);
        onDone();
      }}
      steps={[
        {
          title: 'Account',
          fields: ['name', 'email', 'password'],
          content: (
            <>
              <FormTextField name="name" label="Name" />
              <FormTextField name="email" label="Email" type="email" />
              <FormTextField name="password" label="Password" type="password" />
            </>
          ),
        },
        { title: 'About you', fields: ['occupation'], content: <FormTextField name="occupation" label="Occupation" /> },
      ]}
    />
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const click = (name: string) =>
  act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
const fillAccount = () => {
  type('Name', 'Asha Rao');
  type('Email', 'asha@example.com');
  type('Password', 'a long passphrase');
};

test('Next with an invalid field stays on the step and shows the error beside that field', async () => {
  render(<TwoStepSignup onDone={jest.fn()} />);
  type('Name', 'Asha Rao');
  type('Email', 'not an e-mail');
  type('Password', 'short');
  await click('Next');
  expect(screen.getByRole('heading', { name: 'Account' })).toBeInTheDocument();
  const email = screen.getByLabelText('Email');
  expect(email).toHaveAttribute('aria-invalid', 'true');
  expect(email).toHaveAccessibleDescription('Invalid e-mail address');
  expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password must be at least 8 characters');
  expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
  expect(fake.requests).toHaveLength(0);
});

test('an error shown by Next goes as soon as the field becomes valid, before any other Next', async () => {
  render(<TwoStepSignup onDone={jest.fn()} />);
  await click('Next');
  const name = screen.getByLabelText('Name');
  expect(name).toHaveAttribute('aria-invalid', 'true');
  await act(async () => {
    fireEvent.change(name, { target: { value: 'Asha Rao' } });
  });
  expect(name).not.toHaveAttribute('aria-invalid');
  expect(name).not.toHaveAccessibleDescription(/./);
  // a field still wrong keeps an error, now the one for what was typed
  const email = screen.getByLabelText('Email');
  await act(async () => {
    fireEvent.change(email, { target: { value: 'not an e-mail' } });
  });
  expect(email).toHaveAccessibleDescription('Invalid e-mail address');
});

test('Next with valid fields moves on without checking the later steps; Back keeps values without checking', async () => {
  render(<TwoStepSignup onDone={jest.fn()} />);
  fillAccount();
  await click('Next');
  expect(screen.getByRole('heading', { name: 'About you' })).toBeInTheDocument();
  expect(screen.getByLabelText('Occupation')).not.toHaveAttribute('aria-invalid');
  const tooLong = 'x'.repeat(201);
  type('Occupation', tooLong);
  await click('Back');
  expect(screen.getByRole('heading', { name: 'Account' })).toBeInTheDocument();
  expect(screen.getByLabelText('Name')).toHaveValue('Asha Rao');
  await click('Next');
  // kept, and not checked by Back nor by the first step's Next
  expect(screen.getByLabelText('Occupation')).toHaveValue(tooLong);
  expect(screen.getByLabelText('Occupation')).not.toHaveAttribute('aria-invalid');
  await click('Finish');
  expect(screen.getByLabelText('Occupation')).toHaveAttribute('aria-invalid', 'true');
  expect(fake.requests).toHaveLength(0);
});

test('Finish submits once, with the schema output; a server error about a step-1 field shows beside it on step 1', async () => {
  signupReply = { status: 400, body: { error: 'email: Invalid e-mail address' } };
  const onDone = jest.fn();
  render(<TwoStepSignup onDone={onDone} />);
  fillAccount();
  type('Email', '  Asha@Example.com ');
  await click('Next');
  await click('Finish');
  expect(await screen.findByRole('heading', { name: 'Account' })).toBeInTheDocument();
  expect(fake.requests).toHaveLength(1);
  expect(fake.requests[0].body).toEqual({
    name: 'Asha Rao',
    email: 'asha@example.com',
    password: 'a long passphrase',
    occupation: '',
  });
  expect(onDone).not.toHaveBeenCalled();
  expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Invalid e-mail address');
  // the error belongs to a field: no generic banner
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('a server error that belongs to no field shows the generic text on the last step', async () => {
  signupReply = { status: 500, body: { error: 'Internal Server Error' } };
  render(<TwoStepSignup onDone={jest.fn()} />);
  fillAccount();
  await click('Next');
  await click('Finish');
  expect(await screen.findByRole('alert')).toHaveTextContent('Could not register. Try again?');
  expect(screen.getByRole('heading', { name: 'About you' })).toBeInTheDocument();
});

test('fieldErrorsFrom reads the api\'s "path: message" errors and known texts, for the given fields only', () => {
  const fields = ['email', 'address.city'];
  expect(fieldErrorsFrom('address.city: Required; other: Nope', fields)).toEqual([
    { field: 'address.city', message: 'Required' },
  ]);
  expect(fieldErrorsFrom('An account with this e-mail already exists', fields)).toEqual([
    { field: 'email', message: 'An account with this e-mail already exists' },
  ]);
  expect(fieldErrorsFrom('body: Malformed JSON', fields)).toEqual([]);
  expect(fieldErrorsFrom(undefined, fields)).toEqual([]);
});

test('fieldNamesOf names nested fields as react-hook-form does', () => {
  expect(fieldNamesOf({ DOB: '', address: { city: '', pinCode: '' }, tags: [] })).toEqual([
    'DOB',
    'address.city',
    'address.pinCode',
    'tags',
  ]);
});

test('the steps are named, the current one marked, the ones behind said to be done', async () => {
  render(<TwoStepSignup onDone={() => {}} />);
  const steps = screen.getByRole('list', { name: 'Step 1 of 2' });
  const items = Array.from(steps.querySelectorAll('li'));
  expect(items.map((li) => li.textContent)).toEqual(['Account', 'About you']);
  expect(items[0]).toHaveAttribute('aria-current', 'step');
  expect(items[1]).not.toHaveAttribute('aria-current');
  fillAccount();
  await click('Next');
  const now = Array.from(screen.getByRole('list', { name: 'Step 2 of 2' }).querySelectorAll('li'));
  expect(now.map((li) => li.textContent)).toEqual(['Account (done)', 'About you']);
  expect(now[1]).toHaveAttribute('aria-current', 'step');
});
