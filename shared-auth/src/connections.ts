import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { REQUEST_LIST_REFRESH_DELAY_MS, type ConnectionRequest, type MessageResponse, type Role } from 'shared-contracts';
import { api } from './client';
import { profileKey } from './profile';

export type RequestDirection = 'incoming' | 'outgoing';
const LIST_PATH: Record<RequestDirection, string> = { incoming: 'receivedRequests', outgoing: 'sentRequests' };
export const requestsKey = (role: Role, direction: RequestDirection) => ['connection-requests', role, direction] as const;

/** A doctor asks a patient (by the patient's e-mail), a patient asks a doctor. */
export const requestConnection = (role: Role, email: string) =>
  api()
    .post(role === 'doctor' ? 'doctor/requestPatient' : 'patient/requestDoctor', { json: { email } })
    .json<MessageResponse>();

export const useConnectionRequests = (role: Role, direction: RequestDirection) =>
  useQuery({
    queryKey: requestsKey(role, direction),
    queryFn: () => api().get(`${role}/${LIST_PATH[direction]}`).json<ConnectionRequest[]>(),
  });

/** Accept or reject (Cancel sends reject); the lists and the assignments are read again after 400 ms. */
export function useRespondToRequest(role: Role) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'accept' | 'reject' }) =>
      api().patch(`${role}/responseRequest/${encodeURIComponent(id)}`, { json: { action } }).json<MessageResponse>(),
    onSettled: () =>
      setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: ['connection-requests', role] });
        void queryClient.invalidateQueries({ queryKey: profileKey(role) });
      }, REQUEST_LIST_REFRESH_DELAY_MS),
  });
}
