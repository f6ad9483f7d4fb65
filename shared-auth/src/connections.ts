import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@careloop/shared-contracts';
import { REQUEST_LIST_REFRESH_DELAY_MS } from '@careloop/shared-contracts/routes';
import { call } from './client';
import { profileKey } from './profile';
import { worklistKey } from './records';

export type RequestDirection = 'incoming' | 'outgoing';
const LIST: Record<RequestDirection, 'ReceivedRequests' | 'SentRequests'> = {
  incoming: 'ReceivedRequests',
  outgoing: 'SentRequests',
};
export const requestsKey = (role: Role, direction: RequestDirection) => ['connection-requests', role, direction] as const;

/** A doctor asks a patient (by the patient's e-mail), a patient asks a doctor. */
export const requestConnection = (role: Role, email: string) => call(`${role}RequestConnection`, { body: { email } });

export const useConnectionRequests = (role: Role, direction: RequestDirection) =>
  useQuery({
    queryKey: requestsKey(role, direction),
    queryFn: () => call(`${role}${LIST[direction]}`),
  });

/** Accept or reject (Cancel sends reject); the lists and the assignments are read again after 400 ms. */
export function useRespondToRequest(role: Role) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'accept' | 'reject' }) =>
      call(`${role}RespondToRequest`, { params: { requestId: id }, body: { action } }),
    onSettled: () =>
      setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: ['connection-requests', role] });
        void queryClient.invalidateQueries({ queryKey: profileKey(role) });
        if (role === 'doctor') void queryClient.invalidateQueries({ queryKey: worklistKey });
      }, REQUEST_LIST_REFRESH_DELAY_MS),
  });
}

/**
 * Revoke: a patient ends a doctor's access (DELETE /patient/doctors/{id}), a doctor releases a
 * patient (DELETE /doctor/patients/{id}); the caller's profile, which lists the people, and a
 * doctor's worklist are read again.
 */
export function useRevokeAssignment(role: Role) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (otherId: string) =>
      role === 'patient'
        ? call('patientRevokeDoctor', { params: { doctorId: otherId } })
        : call('doctorRevokePatient', { params: { patientId: otherId } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: profileKey(role) });
      if (role === 'doctor') await queryClient.invalidateQueries({ queryKey: worklistKey });
    },
  });
}
