import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: unguessable, so a fast hash (not scrypt) is enough to store it. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
