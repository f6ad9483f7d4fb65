import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// scrypt from node:crypto: memory-hard, no native add-on to build (argon2's binary segfaults here).
// Stored format: scrypt$<log2 N>$<r>$<p>$<salt b64>$<hash b64> — the parameters travel with the
// hash, so the cost can be raised later (or lowered in tests) without breaking existing hashes.

export const DEFAULT_COST = 17; // N = 2^17 (OWASP's scrypt recommendation)
const R = 8;
const P = 1;
const KEY_LEN = 32;
const SALT_LEN = 16;
const MIN_MAXMEM = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, cost: number, r: number, p: number, keyLen: number): Promise<Buffer> {
  const N = 2 ** cost;
  // scrypt needs 128·N·r bytes; leave headroom above that.
  const options: ScryptOptions = { N, r, p, maxmem: Math.max(MIN_MAXMEM, 2 * 128 * N * r) };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string, cost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(SALT_LEN);
  const key = await derive(password, salt, cost, R, P, KEY_LEN);
  return ['scrypt', cost, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [cost, r, p] = parts.slice(1, 4).map(Number);
  if (![cost, r, p].every(Number.isInteger) || cost < 1 || cost > 24) return false;
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (expected.length === 0) return false;
  const actual = await derive(password, salt, cost, r, p, expected.length);
  return timingSafeEqual(actual, expected);
}

/**
 * Verifying against this for unknown e-mails spends the same scrypt time as a real check, so
 * response time does not tell which e-mails have accounts. Made lazily, once per cost.
 */
const dummyHashes = new Map<number, Promise<string>>();
export function dummyHash(cost: number): Promise<string> {
  let h = dummyHashes.get(cost);
  if (!h) {
    h = hashPassword(randomBytes(16).toString('hex'), cost);
    dummyHashes.set(cost, h);
  }
  return h;
}
