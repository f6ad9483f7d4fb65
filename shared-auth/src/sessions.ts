import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@careloop/shared-contracts';
import { call } from './client';

export const sessionsKey = (role: Role) => ['sessions', role] as const;

/** GET /{role}/sessions: the account's live sessions, this device's marked `current`. */
export const useSessions = (role: Role) => useQuery({ queryKey: sessionsKey(role), queryFn: () => call(`${role}ListSessions`) });

/**
 * Ends one other session (`sessionId`) or every other one (`'others'`); the list is read again
 * afterwards, whatever the answer (one may have ended meanwhile).
 */
export function useEndSessions(role: Role) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (which: string) =>
      which === 'others' ? call(`${role}EndOtherSessions`) : call(`${role}EndSession`, { params: { sessionId: which } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey(role) }),
  });
}
