import type { Role } from '@careloop/shared-contracts';

/** Who is asking: an account in a role. A leaf, so any access file can name it without a cycle. */
export interface Caller {
  accountId: string;
  role: Role;
}
