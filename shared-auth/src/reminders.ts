import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReminderCreate } from '@careloop/shared-contracts';
import { call } from './client';

const remindersKey = ['reminders'] as const;

export const useReminders = () => useQuery({ queryKey: remindersKey, queryFn: () => call('listReminders') });

export function useScheduleReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReminderCreate) => call('scheduleReminder', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: remindersKey }),
  });
}

export function useCancelReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('cancelReminder', { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: remindersKey }),
  });
}
