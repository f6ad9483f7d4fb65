import { AccessHistoryView } from '@careloop/shared-ui';

/** /doctor/access-history: the doctor account's security log (sign-ins, password, two-factor…). */
export default function AccessHistory() {
  return <AccessHistoryView role="doctor" />;
}
