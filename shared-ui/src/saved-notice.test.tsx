import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, RouterProvider, createMemoryRouter } from '@careloop/shared-router';
import { SavedNotice, savedState } from './SavedNotice';

test('a save that moved on says so on the next page, as a status that goes after a few seconds', () => {
  jest.useFakeTimers();
  try {
    render(
      <MemoryRouter initialEntries={[{ pathname: '/patient/dashboard', state: savedState('Your profile was saved.') }]}>
        <SavedNotice />
      </MemoryRouter>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Your profile was saved.');
    act(() => jest.advanceTimersByTime(5000));
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1500));
    expect(screen.queryByRole('status')).toBeNull();
  } finally {
    jest.useRealTimers();
  }
});

test('arriving without a save shows nothing', () => {
  render(
    <MemoryRouter initialEntries={['/patient/dashboard']}>
      <SavedNotice />
    </MemoryRouter>,
  );
  expect(screen.queryByRole('status')).toBeNull();
});

test('the text is taken out of the history entry as it is shown: a reload does not say it again', () => {
  const router = createMemoryRouter([{ path: '/patient/dashboard', element: <SavedNotice /> }], {
    initialEntries: [{ pathname: '/patient/dashboard', state: { ...savedState('Your profile was saved.'), from: 'edit' } }],
  });
  const first = render(<RouterProvider router={router} />);
  expect(screen.getByRole('status')).toHaveTextContent('Your profile was saved.');
  expect(router.state.location.state).toEqual({ from: 'edit' });
  first.unmount();
  // a reload renders the same history entry again
  render(<RouterProvider router={router} />);
  expect(screen.queryByRole('status')).toBeNull();
});
