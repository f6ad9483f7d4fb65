import { NotificationSettingsView } from '@careloop/shared-ui';

/** /patient/notifications/settings: which notifications are also e-mailed (shared-ui's view). */
export default function NotificationSettings() {
  return <NotificationSettingsView role="patient" />;
}
