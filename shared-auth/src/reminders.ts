import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ENDPOINTS, type ReminderCreate } from '@careloop/shared-contracts';
import { call } from './client';

const remindersKey = ['reminders'] as const;

export const useReminders = () => useQuery({ queryKey: remindersKey, queryFn: () => call(ENDPOINTS.listReminders) });

export function useScheduleReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReminderCreate) => call(ENDPOINTS.scheduleReminder, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: remindersKey }),
  });
}

export function useCancelReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(ENDPOINTS.cancelReminder, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: remindersKey }),
  });
}
