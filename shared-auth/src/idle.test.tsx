import { act, fireEvent, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { configureIdleTimeout, idleSignOutNotice, useIdleLogoff } from './idle';
import { useSession } from './session';

// The automatic logoff counts only what a person does: a pointer that did not move (the browser
// re-checking hover when the page changes under it) and anything on the warning itself do not
// postpone it — only "Stay signed in" does.

const MINUTE = 60_000;

function signedIn() {
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useIdleLogoff(), { wrapper });
}

// jsdom has no PointerEvent; in browsers it is a MouseEvent with the same coordinates.
const pointerMove = (target: Element, screenX: number, screenY: number) =>
  fireEvent(target, new MouseEvent('pointermove', { bubbles: true, screenX, screenY }));

const advance = (ms: number) => act(() => void jest.advanceTimersByTime(ms));

beforeEach(() => {
  jest.useFakeTimers();
  localStorage.clear();
  global.fetch = jest.fn(() => Promise.resolve(new Response(null, { status: 204 }))) as typeof fetch;
  useSession.setState({ token: 't1', role: 'doctor', isAuthenticated: true, isLoading: false });
});
afterEach(() => jest.useRealTimers());

test('warned in the last minute, signed out after 15 minutes without activity', () => {
  const { result } = signedIn();
  advance(13 * MINUTE + 59_000);
  expect(result.current.secondsLeft).toBeNull();
  advance(2000);
  expect(result.current.secondsLeft).toBeGreaterThan(0);
  advance(60_000);
  expect(useSession.getState().isAuthenticated).toBe(false);
});

test('a real pointer move postpones the logoff; one at the same point does not', () => {
  signedIn();
  pointerMove(document.body, 10, 10);
  advance(10 * MINUTE);
  pointerMove(document.body, 10, 10);
  advance(5 * MINUTE + 1000);
  expect(useSession.getState().isAuthenticated).toBe(false);

  act(() => useSession.setState({ token: 't2', role: 'doctor', isAuthenticated: true }));
  advance(10 * MINUTE);
  pointerMove(document.body, 40, 12);
  advance(5 * MINUTE + 1000);
  expect(useSession.getState().isAuthenticated).toBe(true);
});

test('events on the warning are not activity; "Stay signed in" is', () => {
  const { result } = signedIn();
  const warning = document.createElement('div');
  warning.setAttribute('data-idle-warning', '');
  const button = document.createElement('button');
  warning.append(button);
  document.body.append(warning);

  advance(14 * MINUTE + 30_000);
  pointerMove(warning, 99, 99);
  fireEvent.focus(button);
  fireEvent.keyDown(button, { key: 'Tab' });
  advance(1000);
  expect(result.current.secondsLeft).toBeLessThanOrEqual(30);

  act(() => result.current.staySignedIn());
  expect(result.current.secondsLeft).toBeNull();
  // The warning goes; the browser re-checks hover under the still pointer, whenever it gets to it.
  warning.remove();
  advance(14 * MINUTE);
  pointerMove(document.body, 99, 99);
  expect(useSession.getState().isAuthenticated).toBe(true);
  advance(MINUTE + 1000);
  expect(useSession.getState().isAuthenticated).toBe(false);
});

test('the login notice counts the minutes in words a person reads: "1 minute", "15 minutes"', () => {
  signedIn();
  advance(15 * MINUTE + 1000);
  expect(idleSignOutNotice()).toBe('You were signed out after 15 minutes without activity');

  configureIdleTimeout(1);
  act(() => useSession.setState({ token: 't2', role: 'doctor', isAuthenticated: true }));
  advance(MINUTE + 1000);
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(idleSignOutNotice()).toBe('You were signed out after 1 minute without activity');
  configureIdleTimeout(15);
});
