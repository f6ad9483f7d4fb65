import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreference, Role } from '@careloop/shared-contracts';
import { call } from './client';

/** Every notification query of a role: the inbox pages, the unread count, the preferences. */
export const notificationsKey = (role: Role) => ['notifications', role] as const;

/** GET /{role}/notifications: one page, newest first, with the unread count. */
export const useNotifications = (role: Role, page = 1, limit = 20) =>
  useQuery({
    queryKey: [...notificationsKey(role), 'page', page, limit],
    queryFn: () => call(`${role}ListNotifications`, { query: { page, limit } }),
  });

/**
 * GET /{role}/notifications/unread: the badge's count (idle while not `enabled`). Read again when the
 * person comes back to the tab or moves to another page (the badge asks), never on a timer: every
 * request keeps the session alive on the server, and its idle limit must still end an unattended one.
 */
export const useUnreadNotifications = (role: Role, enabled = true) =>
  useQuery({
    queryKey: [...notificationsKey(role), 'unread'],
    queryFn: () => call(`${role}UnreadNotifications`),
    refetchOnWindowFocus: true,
    enabled,
  });

/** Marks one notification (its id) or every one (`'all'`) read; the inbox and the badge are read again. */
export function useMarkNotificationsRead(role: Role) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (which: string) =>
      which === 'all'
        ? call(`${role}MarkAllNotificationsRead`)
        : call(`${role}MarkNotificationRead`, { params: { notificationId: which } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey(role) }),
  });
}

/** GET /{role}/notification-preferences: per kind, whether it is also e-mailed. */
export const useNotificationPreferences = (role: Role) =>
  useQuery({
    queryKey: [...notificationsKey(role), 'preferences'],
    queryFn: () => call(`${role}NotificationPreferences`),
  });

/** PUT /{role}/notification-preferences: the answer (every kind) replaces the cached preferences. */
export function useSetNotificationPreferences(role: Role) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preferences: NotificationPreference[]) => call(`${role}SetNotificationPreferences`, { body: { preferences } }),
    onSuccess: (answer) => queryClient.setQueryData([...notificationsKey(role), 'preferences'], answer),
  });
}
