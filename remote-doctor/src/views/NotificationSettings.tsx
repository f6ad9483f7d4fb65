import { NotificationSettingsView } from '@careloop/shared-ui';

/** /doctor/notifications/settings: which notifications are also e-mailed (shared-ui's view). */
export default function NotificationSettings() {
  return <NotificationSettingsView role="doctor" />;
}
