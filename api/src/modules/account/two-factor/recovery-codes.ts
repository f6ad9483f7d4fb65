import { createHash, randomInt } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { RECOVERY_CODE_COUNT, type Role } from '@careloop/shared-contracts';
import type { Queryable } from '../../../adapters/db';
import { recoveryCodes } from '../../../db/schema';

// Single-use codes for a lost authenticator. Each is 10 characters of RFC 4648 base32 (50 bits
// from node:crypto's CSPRNG), shown as `xxxxx-xxxxx`. Only a hash is kept, salted with the account
// (a dump cannot be matched against one precomputed table); online guessing is bounded by the
// two-factor lockout (5 wrong codes per 15 minutes), which counts recovery codes too.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const CODE_CHARS = 10;

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_CHARS; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The form a code is hashed in: upper case, no dash or spaces (as the contract's RecoveryCode reads it). */
export const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

export function hashRecoveryCode(role: Role, accountId: string, code: string): string {
  return createHash('sha256')
    .update(`${role}:${accountId}:recovery:${normalizeRecoveryCode(code)}`)
    .digest('hex');
}

/** A fresh set replaces every earlier code of the account; the plain codes are returned once. */
export async function replaceRecoveryCodes(db: Queryable, role: Role, accountId: string, now: Date): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  await deleteRecoveryCodes(db, role, accountId);
  await db
    .insert(recoveryCodes)
    .values([...codes].map((code) => ({ role, accountId, codeHash: hashRecoveryCode(role, accountId, code), createdAt: now })));
  return [...codes];
}

export async function deleteRecoveryCodes(db: Queryable, role: Role, accountId: string): Promise<void> {
  await db.delete(recoveryCodes).where(and(eq(recoveryCodes.role, role), eq(recoveryCodes.accountId, accountId)));
}

/**
 * Marks an unused code used, in one conditional UPDATE: of two requests racing with the same code
 * only one finds it unused. true when this call used it.
 */
export async function consumeRecoveryCode(
  db: Queryable,
  role: Role,
  accountId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.role, role),
        eq(recoveryCodes.accountId, accountId),
        eq(recoveryCodes.codeHash, hashRecoveryCode(role, accountId, code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

export async function remainingRecoveryCodes(db: Queryable, role: Role, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.role, role), eq(recoveryCodes.accountId, accountId), isNull(recoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}
