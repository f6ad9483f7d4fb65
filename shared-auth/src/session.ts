import { create } from 'zustand';
import { persist, type PersistStorage } from 'zustand/middleware';
import type { Role } from '@careloop/shared-contracts';
import { isRole } from '@careloop/shared-contracts/routes';

export const TOKEN_KEY = 'token';
export const ROLE_KEY = 'role';

export interface SessionState {
  token: string | null;
  role: Role | null;
  isAuthenticated: boolean;
  /** true until start() has read local storage; nothing protected renders before. */
  isLoading: boolean;
  start(): void;
  login(token: string, role: Role): void;
  replaceToken(token: string): void;
  logout(): void;
}

type StoredSession = Pick<SessionState, 'token' | 'role'>;

/**
 * persist's own JSON storage keeps one JSON value under one key; the SPEC (and the e2e tests) keep the
 * session as two plain strings, `localStorage.token` and `localStorage.role`. This maps one to the other.
 */
export const sessionStorageOfTwoKeys: PersistStorage<StoredSession> = {
  getItem() {
    const token = localStorage.getItem(TOKEN_KEY);
    const role = localStorage.getItem(ROLE_KEY);
    // A stray role without a token, or a role that is not a role, is not trusted.
    return { state: { token, role: token && isRole(role) ? role : null } };
  },
  setItem(_name, { state }) {
    if (state.token) localStorage.setItem(TOKEN_KEY, state.token);
    else localStorage.removeItem(TOKEN_KEY);
    if (state.token && state.role) localStorage.setItem(ROLE_KEY, state.role);
    else localStorage.removeItem(ROLE_KEY);
  },
  removeItem() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(ROLE_KEY);
  },
};

let listening = false;

export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      token: null,
      role: null,
      isAuthenticated: false,
      isLoading: true,
      start() {
        // Read again: the stored session may have changed since the store was created.
        void useSession.persist.rehydrate();
        set({ isLoading: false });
        if (!listening && typeof window !== 'undefined') {
          listening = true;
          // A login or logout in another tab applies here too.
          window.addEventListener('storage', (e) => {
            if (e.key === TOKEN_KEY || e.key === ROLE_KEY || e.key === null) void useSession.persist.rehydrate();
          });
        }
      },
      login(token, role) {
        set({ token, role, isAuthenticated: true, isLoading: false });
      },
      replaceToken(token) {
        set({ token });
      },
      logout() {
        set({ token: null, role: null, isAuthenticated: false });
      },
    }),
    {
      name: 'session',
      storage: sessionStorageOfTwoKeys,
      partialize: ({ token, role }): StoredSession => ({ token, role }),
      merge: (stored, current) => {
        const { token, role } = stored as StoredSession;
        return { ...current, token, role, isAuthenticated: Boolean(token) };
      },
    },
  ),
);
