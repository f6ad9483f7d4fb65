import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES } from '@careloop/shared-contracts';
import { notificationAccessFor } from '../../access';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';

/**
 * The caller's own notifications (written by the events themselves, api/src/access/notifications.ts):
 *   GET  /{role}/notifications                      newest first, with the unread count
 *   GET  /{role}/notifications/unread               the badge's count
 *   POST /{role}/notifications/{notificationId}/read, POST /{role}/notifications/read-all
 *   GET, PUT /{role}/notification-preferences       per kind, e-mail on or off
 * Who may read or mark which is decided in the access layer: the caller's own, 404 for any other id.
 */
export function notificationRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    for (const role of ROLES) {
      route(app, deps, ENDPOINTS[`${role}ListNotifications`], async (request) =>
        notificationAccessFor(deps, request).list(request.query.page, request.query.limit),
      );
      route(app, deps, ENDPOINTS[`${role}UnreadNotifications`], async (request) => ({
        unread: await notificationAccessFor(deps, request).unread(),
      }));
      route(app, deps, ENDPOINTS[`${role}MarkNotificationRead`], async (request) => ({
        unread: await notificationAccessFor(deps, request).markRead(request.params.notificationId),
      }));
      route(app, deps, ENDPOINTS[`${role}MarkAllNotificationsRead`], async (request) => ({
        unread: await notificationAccessFor(deps, request).markAllRead(),
      }));
      route(app, deps, ENDPOINTS[`${role}NotificationPreferences`], async (request) => ({
        preferences: await notificationAccessFor(deps, request).preferences(),
      }));
      route(app, deps, ENDPOINTS[`${role}SetNotificationPreferences`], async (request) => ({
        preferences: await notificationAccessFor(deps, request).setPreferences(request.body.preferences),
      }));
    }
  };
}
