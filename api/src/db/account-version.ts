import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import type { Queryable } from './queryable';
import { qualified } from './qualified';
import { accountTables } from './schema';

// A reset link, verification link or hand-off code is bound to the account as it was when issued:
// it stores the account's security_version (moved on by a trigger whenever the e-mail, password or
// verification state changes) and works only while the account is still at that version. A null
// version (issued before binding) never matches.

/** The account's security_version now (undefined: no such account). */
export async function securityVersionOf(db: Queryable, role: Role, accountId: string): Promise<number | undefined> {
  const t = accountTables[role];
  const [row] = await db.select({ v: t.securityVersion }).from(t).where(eq(t.id, accountId)).limit(1);
  return row?.v;
}

/** True where the token's `version` still equals the security_version of the account `accountId` names. */
export function boundToAccount(role: Role, version: AnyColumn, accountId: AnyColumn): SQL {
  const t = accountTables[role];
  return sql`${qualified(version)} = (select ${qualified(t.securityVersion)} from ${t} where ${qualified(t.id)} = ${qualified(accountId)})`;
}
