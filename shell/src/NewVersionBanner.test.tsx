import { act, fireEvent, render, screen } from '@testing-library/react';
import { Link, MemoryRouter } from '@careloop/shared-router';
import { NewVersionBanner } from './NewVersionBanner';
import { newReleaseAvailable } from './releases';

// runtime-config.json is the network edge: whether it names a newer release is what each test sets.
jest.mock('./releases', () => ({ newReleaseAvailable: jest.fn() }));
const newer = newReleaseAvailable as jest.MockedFunction<typeof newReleaseAvailable>;

function renderBanner() {
  return render(
    <MemoryRouter initialEntries={['/patient/signup']}>
      <Link to="/patient/dashboard">next page</Link>
      <NewVersionBanner />
    </MemoryRouter>,
  );
}

beforeEach(() => newer.mockReset());

test('nothing is offered while the tab runs the current releases', async () => {
  newer.mockResolvedValue(false);
  renderBanner();
  await act(async () => {});
  expect(newer).toHaveBeenCalled();
  expect(screen.queryByText('A new version of CareLoop is available')).toBeNull();
});

test('a release found on navigation is offered politely, with a Reload button', async () => {
  newer.mockResolvedValueOnce(false).mockResolvedValue(true);
  renderBanner();
  await act(async () => {});
  expect(screen.queryByRole('status')).toBeNull();

  fireEvent.click(screen.getByRole('link', { name: 'next page' }));
  const notice = await screen.findByRole('status');
  expect(notice).toHaveTextContent('A new version of CareLoop is available');
  expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
});

test('focus on the window checks again', async () => {
  newer.mockResolvedValueOnce(false).mockResolvedValue(true);
  renderBanner();
  await act(async () => {});
  expect(newer).toHaveBeenCalledTimes(1);
  await act(async () => {
    window.dispatchEvent(new Event('focus'));
  });
  expect(newer).toHaveBeenCalledTimes(2);
  expect(await screen.findByRole('status')).toHaveTextContent('A new version of CareLoop is available');
});
