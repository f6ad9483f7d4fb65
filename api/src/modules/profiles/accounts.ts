import { eq } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import type { Queryable } from '../../adapters/db';
import { accountTables } from '../../db/schema';

export { accountTables };

export interface Credentials {
  id: string;
  passwordHash: string;
  twoFactorEnabled: boolean;
}

export async function findCredentials(db: Queryable, role: Role, email: string): Promise<Credentials | undefined> {
  const t = accountTables[role];
  const [row] = await db
    .select({ id: t.id, passwordHash: t.passwordHash, twoFactorEnabled: t.twoFactorEnabled })
    .from(t)
    .where(eq(t.email, email))
    .limit(1);
  return row;
}

/** The account's name and e-mail: the words its password must not lean on (see requireStrongPassword). */
export async function accountWords(db: Queryable, role: Role, id: string): Promise<string[]> {
  const t = accountTables[role];
  const [row] = await db.select({ name: t.name, email: t.email }).from(t).where(eq(t.id, id)).limit(1);
  return row ? [row.name, row.email] : [];
}
