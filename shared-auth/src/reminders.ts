import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse, Reminder, ReminderCreate } from 'shared-contracts';
import { api } from './client';

const remindersKey = ['reminders'] as const;

export const useReminders = () =>
  useQuery({ queryKey: remindersKey, queryFn: () => api().get('doctor/reminders').json<Reminder[]>() });

export function useScheduleReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReminderCreate) => api().post('doctor/reminder', { json: body }).json<Reminder>(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: remindersKey }),
  });
}

export function useCancelReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api().delete(`doctor/reminders/${encodeURIComponent(id)}`).json<MessageResponse>(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: remindersKey }),
  });
}
