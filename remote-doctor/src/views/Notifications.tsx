import { NotificationsView } from '@careloop/shared-ui';

/** /doctor/notifications: what happened that concerns the account (shared-ui's view). */
export default function Notifications() {
  return <NotificationsView role="doctor" />;
}
