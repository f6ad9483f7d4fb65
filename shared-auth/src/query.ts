import { QueryClient } from '@tanstack/react-query';
import { HTTPError } from 'ky';

const MAX_RETRIES = 3;

/** SPEC §9: failed reads retried 3 times, delay doubling from 1 s up to 30 s, unused cache kept 5 minutes. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will answer the same again; retry only what may pass on a second try.
        retry: (failures, err) => failures < MAX_RETRIES && !(err instanceof HTTPError && err.response.status < 500),
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
        gcTime: 5 * 60 * 1000,
      },
    },
  });
}
