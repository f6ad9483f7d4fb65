import { DEFAULT_COST, dummyHash, hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('uses scrypt N=2^17, r=8, p=1 by default and records the parameters', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(DEFAULT_COST).toBe(17);
    expect(hash).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
  });

  it('verifies with the parameters stored in the hash, whatever the current cost', async () => {
    const cheap = await hashPassword('another passphrase', 10);
    expect(cheap.startsWith('scrypt$10$8$1$')).toBe(true);
    expect(await verifyPassword('another passphrase', cheap)).toBe(true);
    expect(await verifyPassword('another passphrasE', cheap)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password', 10)).not.toBe(await hashPassword('same password', 10));
  });

  it('rejects malformed or tampered hashes instead of throwing', async () => {
    const good = await hashPassword('tamper test', 10);
    const parts = good.split('$');
    expect(await verifyPassword('tamper test', 'plain-text')).toBe(false);
    expect(await verifyPassword('tamper test', ['bcrypt', ...parts.slice(1)].join('$'))).toBe(false);
    expect(await verifyPassword('tamper test', [...parts.slice(0, 5), ''].join('$'))).toBe(false);
    expect(await verifyPassword('tamper test', [parts[0], '11', ...parts.slice(2)].join('$'))).toBe(false);
  });

  it('offers a dummy hash that matches no password', async () => {
    const dummy = await dummyHash(10);
    expect(await dummyHash(10)).toBe(dummy);
    expect(await verifyPassword('', dummy)).toBe(false);
    expect(await verifyPassword('correct horse battery', dummy)).toBe(false);
  });
});
