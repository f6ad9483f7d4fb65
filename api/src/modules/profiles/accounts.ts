import { eq } from 'drizzle-orm';
import type { Role } from 'shared-contracts';
import type { Queryable } from '../../adapters/db';
import { doctors, patients } from '../../db/schema';

/** The two account tables share these columns; login and the guard need only them. */
export const accountTables = { patient: patients, doctor: doctors } as const;

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
