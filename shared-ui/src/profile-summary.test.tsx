import { render, screen } from '@testing-library/react';
import { MemoryRouter } from '@careloop/shared-router';
import { ProfileSummary } from './DashboardCards';

function renderSummary(email: string) {
  render(
    <MemoryRouter>
      <ProfileSummary
        name="Dr. Ana Ruiz"
        editTo="/doctor/edit"
        facts={[
          ['Email', email],
          ['Gender', 'Female'],
        ]}
      />
    </MemoryRouter>,
  );
  return screen.getByText(email).closest('dd')!;
}

test('an e-mail in the profile card may break only after "@" and after dots', () => {
  const dd = renderSummary('ana.ruiz-long-mailbox@clinic.example.com');
  expect(dd).toHaveTextContent('ana.ruiz-long-mailbox@clinic.example.com');
  // Break opportunities: after "ana.", "…mailbox@", "clinic.", "example."
  expect(dd.querySelectorAll('wbr')).toHaveLength(4);
  expect(dd.innerHTML).toBe('ana.<wbr>ruiz-long-mailbox@<wbr>clinic.<wbr>example.<wbr>com');
});

test('the card never breaks words anywhere: only an over-long token wraps', () => {
  const dd = renderSummary('a@b.co');
  const style = getComputedStyle(dd);
  expect(style.overflowWrap).toBe('break-word');
  expect(style.wordBreak).toBe('normal');
});

test('other facts are plain text, an empty one a dash', () => {
  render(
    <MemoryRouter>
      <ProfileSummary
        name="P"
        editTo="/patient/edit"
        facts={[
          ['Occupation', 'Nurse. Night shifts'],
          ['Address', ''],
        ]}
      />
    </MemoryRouter>,
  );
  expect(screen.getByText('Nurse. Night shifts').querySelectorAll('wbr')).toHaveLength(0);
  expect(screen.getByText('—')).toBeInTheDocument();
});
