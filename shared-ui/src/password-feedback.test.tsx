import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { PatientSignup, WEAK_PASSWORD } from '@careloop/shared-contracts';
import { AccountFields, ACCOUNT_FIELDS } from './account';
import { useSchemaForm } from './formSchemas';
import { MultiStepForm } from './MultiStepForm';

// The account step of signup and of profile edit (both roles): zxcvbn's feedback under the
// password field as it is typed, against the name and e-mail typed above it.
const Account = PatientSignup.pick({ name: true, email: true, password: true });

function AccountForm({ mode, onFinish }: { mode: 'signup' | 'edit'; onFinish(body: unknown): unknown }) {
  const form = useSchemaForm(Account, { name: '', email: '', password: '' });
  return (
    <MultiStepForm
      label="Account"
      form={form}
      failure={() => 'Could not register. Try again?'}
      onFinish={onFinish}
      steps={[{ title: 'Account', fields: ACCOUNT_FIELDS, content: <AccountFields mode={mode} /> }]}
    />
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const feedback = () => screen.getByTestId('password-feedback');
// The dictionaries load through import() on the first keystroke: give them time in a busy test run.
const LOAD = { timeout: 20_000 };

jest.setTimeout(30_000);

test.each(['signup', 'edit'] as const)(
  '%s: a common password gets the library warning under the field, tied to it; a passphrase is strong enough',
  async (mode) => {
    render(<AccountForm mode={mode} onFinish={jest.fn()} />);
    const password = screen.getByLabelText(mode === 'signup' ? 'Password' : 'New password');
    expect(feedback()).toBeEmptyDOMElement();
    type(mode === 'signup' ? 'Password' : 'New password', 'football');
    expect(await screen.findByText('This is a frequently used password.', {}, LOAD)).toBeInTheDocument();
    expect(feedback()).toHaveTextContent(WEAK_PASSWORD);
    expect(password).toHaveAccessibleDescription(expect.stringContaining('This is a frequently used password.'));

    type(mode === 'signup' ? 'Password' : 'New password', 'plum ferry cactus lantern');
    expect(await screen.findByText('Strong enough.', {}, LOAD)).toBeInTheDocument();
    expect(feedback()).not.toHaveTextContent(WEAK_PASSWORD);

    type(mode === 'signup' ? 'Password' : 'New password', '');
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(feedback()).toBeEmptyDOMElement();
  },
);

test("a password made of the person's own name is weak for them, not for somebody else", async () => {
  render(<AccountForm mode="signup" onFinish={jest.fn()} />);
  type('Name', 'Ann Lee');
  type('Password', 'zorblaxquintero2024');
  expect(await screen.findByText('Strong enough.', {}, LOAD)).toBeInTheDocument();
  type('Name', 'Zorblax Quintero');
  expect(await screen.findByText('There should not be any personal or page related data.', {}, LOAD)).toBeInTheDocument();
});

test('one message at a time: the length while too short, then the strength; a refused field shows its error alone', async () => {
  const onFinish = jest.fn();
  render(<AccountForm mode="signup" onFinish={onFinish} />);
  type('Password', 'abc');
  expect(feedback()).toHaveTextContent(/^At least 8 characters\.$/);
  type('Password', 'abcdefgh');
  await waitFor(() => expect(feedback()).toHaveTextContent(WEAK_PASSWORD), LOAD);
  expect(feedback()).not.toHaveTextContent('At least');

  type('Password', 'abc');
  fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
  expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
  expect(feedback()).toBeEmptyDOMElement();
  expect(onFinish).not.toHaveBeenCalled();
});
