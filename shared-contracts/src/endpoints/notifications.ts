import { endpoint, perRole } from '../endpoint';
import {
  NotificationIdParams,
  NotificationPage,
  NotificationPreferences,
  NotificationQuery,
  notificationPreferencesBody,
  UnreadNotifications,
} from '../notifications';

/**
 * The caller's own notifications and which of them are also e-mailed (api/src/modules/notifications;
 * who may read or mark which: api/src/access/notifications.ts). Another account's notification is
 * answered 404, exactly as a missing one.
 */
export const NOTIFICATION_ENDPOINTS = {
  ...perRole('listNotifications', (role) =>
    endpoint({
      method: 'GET',
      path: `/${role}/notifications`,
      summary: "The caller's notifications, newest first, with how many are unread",
      tags: [role, 'notifications'],
      access: [role] as const,
      query: NotificationQuery,
      status: 200,
      response: NotificationPage,
      errors: [400, 401, 403],
    }),
  ),
  ...perRole('unreadNotifications', (role) =>
    endpoint({
      method: 'GET',
      path: `/${role}/notifications/unread`,
      summary: "How many of the caller's notifications are unread (the badge)",
      tags: [role, 'notifications'],
      access: [role] as const,
      status: 200,
      response: UnreadNotifications,
      errors: [401, 403],
    }),
  ),
  ...perRole('markNotificationRead', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/notifications/{notificationId}/read`,
      summary: "Mark one of the caller's notifications read; 404 for any other id",
      tags: [role, 'notifications'],
      access: [role] as const,
      params: NotificationIdParams,
      status: 200,
      response: UnreadNotifications,
      errors: [400, 401, 403, 404],
    }),
  ),
  ...perRole('markAllNotificationsRead', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/notifications/read-all`,
      summary: "Mark every one of the caller's notifications read",
      tags: [role, 'notifications'],
      access: [role] as const,
      status: 200,
      response: UnreadNotifications,
      errors: [401, 403],
    }),
  ),
  ...perRole('notificationPreferences', (role) =>
    endpoint({
      method: 'GET',
      path: `/${role}/notification-preferences`,
      summary: 'Per kind of notification the role receives, whether it is also e-mailed (on unless turned off)',
      tags: [role, 'notifications'],
      access: [role] as const,
      status: 200,
      response: NotificationPreferences,
      errors: [401, 403],
    }),
  ),
  ...perRole('setNotificationPreferences', (role) =>
    endpoint({
      method: 'PUT',
      path: `/${role}/notification-preferences`,
      summary: 'Turn the e-mail of some kinds of notification on or off (the inbox always shows them); answers every kind',
      tags: [role, 'notifications'],
      access: [role] as const,
      body: notificationPreferencesBody(role),
      status: 200,
      response: NotificationPreferences,
      errors: [400, 401, 403],
    }),
  ),
};
