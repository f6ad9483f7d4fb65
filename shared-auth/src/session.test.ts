import { useSession } from './session';

beforeEach(() => {
  localStorage.clear();
  useSession.setState({ token: null, role: null, isAuthenticated: false, isLoading: true });
});

test('start() reads the stored token and role, then ends loading', () => {
  localStorage.setItem('token', 'abc');
  localStorage.setItem('role', 'doctor');
  expect(useSession.getState().isLoading).toBe(true);
  useSession.getState().start();
  expect(useSession.getState()).toMatchObject({ token: 'abc', role: 'doctor', isAuthenticated: true, isLoading: false });
});

test('start() without a stored token is logged out, and ignores a stray role', () => {
  localStorage.setItem('role', 'patient');
  useSession.getState().start();
  expect(useSession.getState()).toMatchObject({ token: null, role: null, isAuthenticated: false, isLoading: false });
});

test('a stored role that is not a role is not trusted', () => {
  localStorage.setItem('token', 'abc');
  localStorage.setItem('role', 'admin');
  useSession.getState().start();
  expect(useSession.getState().role).toBeNull();
});

test('login stores token and role under their keys; logout removes them', () => {
  useSession.getState().login('t1', 'patient');
  expect(localStorage.getItem('token')).toBe('t1');
  expect(localStorage.getItem('role')).toBe('patient');
  expect(useSession.getState().isAuthenticated).toBe(true);
  useSession.getState().logout();
  expect(localStorage.getItem('token')).toBeNull();
  expect(localStorage.getItem('role')).toBeNull();
  expect(useSession.getState()).toMatchObject({ token: null, role: null, isAuthenticated: false });
});

test('a logout in another tab logs this tab out', () => {
  useSession.getState().login('t1', 'patient');
  useSession.getState().start();
  localStorage.removeItem('token');
  window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
  expect(useSession.getState().isAuthenticated).toBe(false);
});

test('the session is kept as the two plain keys only, never as one JSON value', () => {
  useSession.getState().login('t1', 'doctor');
  useSession.getState().replaceToken('t2');
  expect(Object.keys(localStorage).sort()).toEqual(['role', 'token']);
  expect(localStorage.getItem('token')).toBe('t2');
  expect(localStorage.getItem('role')).toBe('doctor');
});

test('a login in another tab logs this tab in', () => {
  useSession.getState().start();
  localStorage.setItem('token', 'other-tab');
  localStorage.setItem('role', 'patient');
  window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
  expect(useSession.getState()).toMatchObject({ token: 'other-tab', role: 'patient', isAuthenticated: true });
});
