import { create } from 'zustand';
import { isRole, type Role } from 'shared-contracts';

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

const storedRole = (): Role | null => {
  const value = localStorage.getItem(ROLE_KEY);
  return isRole(value) ? value : null;
};

const fromStorage = () => {
  const token = localStorage.getItem(TOKEN_KEY);
  return { token, role: token ? storedRole() : null, isAuthenticated: Boolean(token) };
};

let listening = false;

export const useSession = create<SessionState>()((set) => ({
  token: null,
  role: null,
  isAuthenticated: false,
  isLoading: true,
  start() {
    set({ ...fromStorage(), isLoading: false });
    if (!listening && typeof window !== 'undefined') {
      listening = true;
      // A login or logout in another tab applies here too.
      window.addEventListener('storage', (e) => {
        if (e.key === TOKEN_KEY || e.key === ROLE_KEY || e.key === null) set(fromStorage());
      });
    }
  },
  login(token, role) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(ROLE_KEY, role);
    set({ token, role, isAuthenticated: true, isLoading: false });
  },
  replaceToken(token) {
    localStorage.setItem(TOKEN_KEY, token);
    set({ token });
  },
  logout() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(ROLE_KEY);
    set({ token: null, role: null, isAuthenticated: false });
  },
}));
