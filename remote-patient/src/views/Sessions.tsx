import { SessionsView } from '@careloop/shared-ui';

/** /patient/sessions: the account's signed-in devices (shared-ui's view). */
export default function Sessions() {
  return <SessionsView role="patient" />;
}
