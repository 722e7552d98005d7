import { sql } from 'drizzle-orm';
import { ErrorCode } from 'shared-api/contract';
import { createUser } from '../../src/auth/accounts';
import { accountDelayMs, MAX_ACCOUNT_DELAY_MS } from '../../src/auth/login-limits';
import { clientNetwork } from '../../src/base/client-address';
import { hashPassword, type ScryptCost } from '../../src/auth/passwords';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { users } from '../../src/auth/tables';
import { LoginMessage } from '../../src/auth/routes';
import { createThrowawayPostgres, freshPglite, queryRows, startTestApp, stopTestApp, type TestContext } from '../helpers';

jest.setTimeout(180_000);

/** Tests that send hundreds of wrong passwords use a cheap scrypt (the app's test-only passwordCost). */
const CHEAP: ScryptCost = { N: 1024, r: 8, p: 1 };
const OLD_COST: ScryptCost = { N: 16384, r: 8, p: 1 };

const tooMany = { success: false, data: null, error: ErrorCode.RATE_LIMITED, message: LoginMessage.tooMany };
const tooManyFailures = { success: false, data: null, error: ErrorCode.RATE_LIMITED, message: LoginMessage.tooManyFailures };

it('says the account lock-out in the words it always had, its wait taken from the limit itself', () => {
  expect(LoginMessage.tooManyFailures).toBe('Too many failed logins for this account. Please wait 15 minutes and try again.');
});

it('holds an account’s answers back 1, 2, 4, 8, then at most 10 seconds once it has 10 failures from all addresses', () => {
  expect([0, 9, 10, 11, 12, 13, 14, 1000].map(accountDelayMs)).toEqual([0, 0, 1000, 2000, 4000, 8000, 10_000, 10_000]);
});

it('reads an IPv6 address as its /64 whatever its spelling, and an IPv4-mapped one as IPv4', () => {
  expect(['2001:db8:1:2::1', '2001:0DB8:0001:0002:ffff::', '2001:db8:1:2:3:4:5:6'].map(clientNetwork)).toEqual(Array(3).fill('2001:db8:1:2::/64'));
  expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
  expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  expect(clientNetwork('::ffff:192.0.2.7')).toBe('192.0.2.7');
  expect(clientNetwork('192.0.2.7')).toBe('192.0.2.7');
});

describe.each(['pglite', 'postgres'] as const)('staff login limits on %s', (driver) => {
  let pgUrl = '';
  let drop: (() => Promise<void>) | undefined;
  const apps: TestContext[] = [];

  beforeAll(async () => {
    if (driver === 'postgres') ({ url: pgUrl, drop } = await createThrowawayPostgres('login_limits'));
  });
  afterAll(async () => {
    for (const ctx of apps) await stopTestApp(ctx);
    await drop?.();
  });

  /** An app on this driver (each PGlite app has its own database; PostgreSQL apps share the throwaway one). */
  async function app(overrides: Parameters<typeof startTestApp>[0]): Promise<TestContext> {
    const database: DatabaseHandle = driver === 'pglite' ? await freshPglite() : await openDatabase({ driver: 'postgres', url: pgUrl });
    const ctx = await startTestApp(overrides, database);
    apps.push(ctx);
    return ctx;
  }
  const login = (ctx: TestContext, email: string, password: string, remoteAddress: string) =>
    ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress });

  it('refuses an address after LOGIN_RATE_LIMIT attempts a minute over all accounts; other addresses go on; no email or address is stored', async () => {
    const ctx = await app({ loginRateLimitPerMinute: 5, passwordCost: CHEAP });
    for (let i = 0; i < 5; i++) expect((await login(ctx, `spray${i}@example.com`, 'x', '10.9.9.9')).statusCode).toBe(401);
    const refused = await login(ctx, 'spray@example.com', 'x', '10.9.9.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(tooMany);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // A malformed body counts too (the address is counted before the body is read).
    expect((await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: {}, remoteAddress: '10.9.9.9' })).statusCode).toBe(429);
    expect((await login(ctx, 'spray@example.com', 'x', '10.8.8.8')).statusCode).toBe(401);

    const keys = await queryRows<{ key: string }>(ctx.database, sql`SELECT key FROM rate_counters`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.map((k) => k.key).join(' ')).not.toMatch(/example\.com|spray|10\.9\.9\.9|10\.8\.8\.8/);
  });

  it('refuses one account from one address for 15 minutes after 10 wrong passwords, and only that pair; unknown emails answer the same', async () => {
    const ctx = await app({ passwordCost: CHEAP });
    await createUser(ctx.database.db, { email: 'pair-owner@example.com', password: 'right-password' }, CHEAP);
    for (const email of ['pair-owner@example.com', 'pair-nobody@example.com']) {
      for (let i = 0; i < 10; i++) expect((await login(ctx, email, `wrong-${i}`, '10.1.1.1')).statusCode).toBe(401);
    }
    // The 11th attempt from that address is refused even with the right password, with the same words for both emails.
    const owner = await login(ctx, 'pair-owner@example.com', 'right-password', '10.1.1.1');
    const nobody = await login(ctx, 'pair-nobody@example.com', 'right-password', '10.1.1.1');
    for (const refused of [owner, nobody]) {
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual(tooManyFailures);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    }
    // The same address may still try other accounts, and the owner gets in from another address.
    expect((await login(ctx, 'someone-else@example.com', 'x', '10.1.1.1')).statusCode).toBe(401);
    expect((await login(ctx, 'pair-owner@example.com', 'right-password', '10.2.2.2')).statusCode).toBe(200);
  });

  it('a right password clears that address’s failures on the account', async () => {
    const ctx = await app({ passwordCost: CHEAP });
    await createUser(ctx.database.db, { email: 'reset@example.com', password: 'right-password' }, CHEAP);
    for (let i = 0; i < 9; i++) expect((await login(ctx, 'reset@example.com', 'wrong', '10.3.3.3')).statusCode).toBe(401);
    expect((await login(ctx, 'reset@example.com', 'right-password', '10.3.3.3')).statusCode).toBe(200);
    // Without the reset this would be the 11th attempt, refused.
    expect((await login(ctx, 'reset@example.com', 'wrong', '10.3.3.3')).statusCode).toBe(401);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as its IPv4 address', async () => {
    const ctx = await app({ loginRateLimitPerMinute: 3, passwordCost: CHEAP });
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:ffff::5', '2001:DB8:1:2:aaaa:bbbb:cccc:dddd']) {
      expect((await login(ctx, 'v6@example.com', 'x', address)).statusCode).toBe(401);
    }
    expect((await login(ctx, 'v6@example.com', 'x', '2001:db8:1:2::9')).statusCode).toBe(429);
    expect((await login(ctx, 'v6@example.com', 'x', '2001:db8:1:3::1')).statusCode).toBe(401);

    for (let i = 0; i < 3; i++) expect((await login(ctx, 'v4@example.com', 'x', '10.6.6.6')).statusCode).toBe(401);
    expect((await login(ctx, 'v4@example.com', 'x', '::ffff:10.6.6.6')).statusCode).toBe(429);
  });

  it('a stranger’s 1,000 wrong passwords from other addresses slow the account down but never keep the owner out', async () => {
    // This is the account rule alone: a patient password queue lets all 1,000 be checked (flood.test.ts has the queue's bounds).
    const ctx = await app({ passwordCost: CHEAP, passwordWork: { maxWaitMs: 120_000 } });
    await createUser(ctx.database.db, { email: 'owner@example.com', password: 'owner-password' }, CHEAP);
    const stranger = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => login(ctx, 'owner@example.com', `guess-${i}`, `10.20.${i >> 8}.${i & 255}`)),
    );
    expect(stranger.map((res) => res.statusCode)).toEqual(Array(1000).fill(401));

    const started = Date.now();
    const owner = await login(ctx, 'owner@example.com', 'owner-password', '10.99.0.1');
    const elapsed = Date.now() - started;
    expect(owner.statusCode).toBe(200);
    // Held back at the cap (the account has 1,000 failures), and never longer than the cap plus the work itself.
    expect(elapsed).toBeGreaterThanOrEqual(MAX_ACCOUNT_DELAY_MS - 50);
    expect(elapsed).toBeLessThan(MAX_ACCOUNT_DELAY_MS + 5_000);
  });

  it('an account stored with the old scrypt cost (N 16384) logs in, is rehashed at N 2^17, and still logs in', async () => {
    const ctx = await app({});
    await ctx.database.db.insert(users).values({ email: 'old-hash@example.com', passwordHash: await hashPassword('old-password', OLD_COST) });
    const storedHash = async () => (await ctx.database.db.select().from(users).where(sql`email = 'old-hash@example.com'`))[0].passwordHash;
    expect(await storedHash()).toMatch(/^scrypt\$16384\$8\$1\$/);

    expect((await login(ctx, 'old-hash@example.com', 'old-password', '10.4.4.4')).statusCode).toBe(200);
    const rehashed = await storedHash();
    expect(rehashed).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect((await login(ctx, 'old-hash@example.com', 'old-password', '10.4.4.4')).statusCode).toBe(200);
    expect(await storedHash()).toBe(rehashed);
    expect((await login(ctx, 'old-hash@example.com', 'wrong-password', '10.4.4.4')).statusCode).toBe(401);
  });
});
