import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ENDPOINTS, type NotificationPreference, type Role } from '@careloop/shared-contracts';
import { call } from './client';

/** Every notification query of a role: the inbox pages, the unread count, the preferences. */
export const notificationsKey = (role: Role) => ['notifications', role] as const;
/** How often the badge asks for the unread count while a page is open (and on every return to the tab). */
export const UNREAD_POLL_MS = 60_000;

/** GET /{role}/notifications: one page, newest first, with the unread count. */
export const useNotifications = (role: Role, page = 1, limit = 20) =>
  useQuery({
    queryKey: [...notificationsKey(role), 'page', page, limit],
    queryFn: () => call(ENDPOINTS[`${role}ListNotifications`], { query: { page, limit } }),
  });

/** GET /{role}/notifications/unread: the badge's count, read again every UNREAD_POLL_MS (idle while not `enabled`). */
export const useUnreadNotifications = (role: Role, enabled = true) =>
  useQuery({
    queryKey: [...notificationsKey(role), 'unread'],
    queryFn: () => call(ENDPOINTS[`${role}UnreadNotifications`]),
    refetchInterval: UNREAD_POLL_MS,
    enabled,
  });

/** Marks one notification (its id) or every one (`'all'`) read; the inbox and the badge are read again. */
export function useMarkNotificationsRead(role: Role) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (which: string) =>
      which === 'all'
        ? call(ENDPOINTS[`${role}MarkAllNotificationsRead`])
        : call(ENDPOINTS[`${role}MarkNotificationRead`], { params: { notificationId: which } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey(role) }),
  });
}

/** GET /{role}/notification-preferences: per kind, whether it is also e-mailed. */
export const useNotificationPreferences = (role: Role) =>
  useQuery({
    queryKey: [...notificationsKey(role), 'preferences'],
    queryFn: () => call(ENDPOINTS[`${role}NotificationPreferences`]),
  });

/** PUT /{role}/notification-preferences: the answer (every kind) replaces the cached preferences. */
export function useSetNotificationPreferences(role: Role) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preferences: NotificationPreference[]) =>
      call(ENDPOINTS[`${role}SetNotificationPreferences`], { body: { preferences } }),
    onSuccess: (answer) => queryClient.setQueryData([...notificationsKey(role), 'preferences'], answer),
  });
}
