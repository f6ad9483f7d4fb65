import type { Role } from '@careloop/shared-contracts';
import { VerifyEmailView } from '@careloop/shared-ui';

/** /{role}/verify-email/{token}: the one view both roles use lives in shared-ui. */
export default function VerifyEmail({ role }: { role: Role }) {
  return <VerifyEmailView role={role} />;
}
