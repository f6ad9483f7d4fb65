import { AccessHistoryView } from '@careloop/shared-ui';

// The view both roles use lives in shared-ui; describeAccess stays importable from here.
export { describeAccess, describeSecurity } from '@careloop/shared-ui';

/** /patient/access-history: who read or changed this patient's data, and the account's security log. */
export default function AccessHistory() {
  return <AccessHistoryView role="patient" />;
}
