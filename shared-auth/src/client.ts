import ky, { HTTPError, type KyInstance } from 'ky';
import { useSession } from './session';

let apiUrl = 'http://localhost:4000';
let instance: KyInstance | undefined;

/** The api's origin, for links the browser follows itself (e.g. Google sign-in). */
export const apiBaseUrl = () => apiUrl;

export function configureApi(url: string): void {
  apiUrl = url.replace(/\/+$/, '');
  instance = undefined;
}

/** The one HTTP client: api base URL from runtime config, the session's bearer token. */
export function api(): KyInstance {
  instance ??= ky.create({
    prefixUrl: apiUrl,
    // TanStack Query owns retries (SPEC §9); ky retrying too would multiply them.
    retry: 0,
    timeout: 30_000,
    hooks: {
      beforeRequest: [
        (request) => {
          const { token } = useSession.getState();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      afterResponse: [
        async (request, _options, response) => {
          const session = useSession.getState();
          const sentToken = request.headers.get('Authorization')?.slice('Bearer '.length);
          if (!sentToken || sentToken !== session.token) return;
          if (response.status === 401) {
            // The server ended this session (logout elsewhere, password change, expiry).
            session.logout();
            return;
          }
          if (response.ok && response.headers.get('content-type')?.includes('application/json')) {
            const body: unknown = await response.clone().json().catch(() => null);
            const token = (body as { token?: unknown } | null)?.token;
            if (typeof token === 'string' && token !== session.token) session.replaceToken(token);
          }
        },
      ],
    },
  });
  return instance;
}

/** The server's `error` text of a failed call, if it sent one. */
export async function serverError(err: unknown): Promise<string | undefined> {
  if (err instanceof HTTPError) {
    const body: unknown = await err.response.clone().json().catch(() => null);
    const error = (body as { error?: unknown } | null)?.error;
    return typeof error === 'string' ? error : undefined;
  }
  return undefined;
}

export function httpStatus(err: unknown): number | undefined {
  return err instanceof HTTPError ? err.response.status : undefined;
}
