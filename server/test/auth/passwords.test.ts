import { hashPassword, needsRehash, verifyPassword } from '../../src/auth/passwords';

jest.setTimeout(60_000);

describe('password hashing', () => {
  it('hashes with scrypt N 2^17, r 8, p 1, a 16-byte salt and a 64-byte key, and verifies only the right password', async () => {
    const stored = await hashPassword('correct-horse');
    const [kind, n, r, p, salt, key] = stored.split('$');
    expect([kind, n, r, p]).toEqual(['scrypt', '131072', '8', '1']);
    expect(Buffer.from(salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(key, 'base64')).toHaveLength(64);
    expect(await verifyPassword('correct-horse', stored)).toBe(true);
    expect(await verifyPassword('correct-horsf', stored)).toBe(false);
    expect(await hashPassword('correct-horse')).not.toBe(stored);
    expect(needsRehash(stored)).toBe(false);
  });

  it('verifies a hash made with the old parameters (N 16384) and says it needs rehashing', async () => {
    const old = await hashPassword('old-secret', { N: 16384, r: 8, p: 1 });
    expect(old).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('old-secret', old)).toBe(true);
    expect(await verifyPassword('old-secrets', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
  });

  it.each([
    ['another scheme', '$2b$12$abcdefghijklmnopqrstuv'],
    ['missing parts', 'scrypt$131072$8$1$'],
    ['a non-number cost', 'scrypt$x$8$1$c2FsdA==$a2V5'],
    ['a cost needing more than 1 GiB', 'scrypt$16777216$8$1$c2FsdA==$a2V5'],
  ])('refuses a stored hash with %s, without throwing', async (_name, stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it('keeps the event loop free while hashing (libuv pool)', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    try {
      await hashPassword('correct-horse');
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThanOrEqual(2);
  });
});
