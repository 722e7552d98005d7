import { sql } from 'drizzle-orm';
import { ErrorCode, SlotListError } from 'shared-api/contract';
import { sessions } from '../src/auth/tables';
import { sha256 } from '../src/base/crypto';
import { auth, queryRows, STAFF, startTestApp, adminToken, stopTestApp, type TestContext } from './helpers';

jest.setTimeout(30_000);

let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await startTestApp();
  token = await adminToken(ctx);
});
afterAll(() => stopTestApp(ctx));

const login = (payload: unknown, remoteAddress = '10.0.0.1') =>
  ctx.app.inject({ method: 'POST', url: '/auth/login', payload: payload as object, remoteAddress });

describe('POST /auth/login', () => {
  it('returns a random token (stored only as its hash) and an expiry', async () => {
    const res = await login(STAFF);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(data.expiresAt).getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const stored = await ctx.database.db.select().from(sessions);
    expect(stored.some((s) => s.tokenHash === data.token)).toBe(false);
    expect(stored.some((s) => s.tokenHash === sha256(data.token))).toBe(true);
  });

  it('accepts the email in any case', async () => {
    expect((await login({ ...STAFF, email: STAFF.email.toUpperCase() })).statusCode).toBe(200);
  });

  it('gives the same answer for an unknown email and a wrong password', async () => {
    const wrong = await login({ email: STAFF.email, password: 'nope' });
    const unknown = await login({ email: 'nobody@example.com', password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ success: false, data: null, message: 'Invalid email or password.', error: ErrorCode.UNAUTHORIZED });
  });

  it.each([
    [{ password: 'x' }, 'required'],
    [{ email: '', password: 'x' }, 'required'],
    [{ email: 'not-an-email', password: 'x' }, 'Entered value does not match email format'],
    [{ email: STAFF.email }, /^password: /],
  ])('refuses %j with a clear 400', async (payload, message) => {
    const res = await login(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: ErrorCode.VALIDATION_ERROR, message: expect.stringMatching(message) });
  });

  it('refuses a body that is not JSON', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: '{oops', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: ErrorCode.VALIDATION_ERROR, message: 'The request body is not valid JSON.' });
  });
});

describe('GET /user', () => {
  it('returns the current user at data.data.user', async () => {
    const res = await ctx.app.inject({ url: '/user', headers: auth(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.data.user).toEqual({ id: expect.any(Number), email: STAFF.email, username: null, role: 'admin' });
  });

  it.each([
    ['missing', {}],
    ['forged', auth('A'.repeat(43))],
    ['malformed header', { authorization: 'Token abc' }],
    ['empty bearer', { authorization: 'Bearer ' }],
  ])('answers 401 to a %s token', async (_name, headers) => {
    const res = await ctx.app.inject({ url: '/user', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, data: null, error: ErrorCode.UNAUTHORIZED, message: SlotListError.unauthorized });
  });

  it('answers 401 once the token has been idle for 8 hours', async () => {
    const idle = (await login(STAFF)).json().data.token;
    await ctx.database.db.execute(sql`UPDATE sessions SET last_used_at = now() - interval '8 hours 1 minute' WHERE token_hash = ${sha256(idle)}`);
    expect((await ctx.app.inject({ url: '/user', headers: auth(idle) })).statusCode).toBe(401);
  });

  it('answers 401 after the absolute 24-hour expiry even when used recently', async () => {
    const old = (await login(STAFF)).json().data.token;
    await ctx.database.db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(old)}`);
    expect((await ctx.app.inject({ url: '/user', headers: auth(old) })).statusCode).toBe(401);
  });

  it('keeps a token alive while it is used (the idle timer moves)', async () => {
    const active = (await login(STAFF)).json().data.token;
    await ctx.database.db.execute(sql`UPDATE sessions SET last_used_at = now() - interval '7 hours' WHERE token_hash = ${sha256(active)}`);
    expect((await ctx.app.inject({ url: '/user', headers: auth(active) })).statusCode).toBe(200);
    const [row] = await queryRows<{ fresh: boolean }>(ctx.database, sql`SELECT last_used_at > now() - interval '1 minute' AS fresh FROM sessions WHERE token_hash = ${sha256(active)}`);
    expect(row.fresh).toBe(true);
  });
});

describe('POST /auth/logout', () => {
  it('revokes the token: the next call answers 401', async () => {
    const t = (await login(STAFF)).json().data.token;
    const out = await ctx.app.inject({ method: 'POST', url: '/auth/logout', headers: auth(t) });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ success: true, message: 'Logged out' });
    expect((await ctx.app.inject({ url: '/user', headers: auth(t) })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'POST', url: '/auth/logout', headers: auth(t) })).statusCode).toBe(401);
    // Other sessions stay valid.
    expect((await ctx.app.inject({ url: '/user', headers: auth(token) })).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expect((await ctx.app.inject({ method: 'POST', url: '/auth/logout' })).statusCode).toBe(401);
  });
});

describe('POST /auth/register', () => {
  const account = { email: 'New.Staff@Example.com', username: 'newstaff', password: 'abcde' };

  it('refuses callers without a staff token, and nothing is created', async () => {
    for (const headers of [{}, auth('forged-token-forged-token')]) {
      const res = await ctx.app.inject({ method: 'POST', url: '/auth/register', payload: account, headers });
      expect(res.statusCode).toBe(401);
    }
    expect((await login({ email: account.email, password: account.password })).statusCode).toBe(401);
  });

  it('an admin adds a colleague, as staff unless admin is chosen; the new account can log in', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/auth/register', payload: account, headers: auth(token) });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.user).toEqual({ id: expect.any(Number), email: 'new.staff@example.com', username: 'newstaff', role: 'staff' });
    expect(res.body).not.toMatch(/abcde|password/i);
    expect((await login({ email: 'new.staff@example.com', password: 'abcde' })).statusCode).toBe(200);
  });

  it('refuses a second account with the same email', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/auth/register', payload: { ...account, email: 'new.staff@example.com' }, headers: auth(token) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: ErrorCode.ACCOUNT_EXISTS, message: 'An account with this email already exists.' });
  });

  it.each([
    [{ email: 'x@example.com', password: 'abcd' }, 'min length is 5'],
    [{ email: 'bad', password: 'abcdef' }, 'Entered value does not match email format'],
    [{ password: 'abcdef' }, 'required'],
  ])('refuses %j with the form’s own message', async (payload, message) => {
    const res = await ctx.app.inject({ method: 'POST', url: '/auth/register', payload, headers: auth(token) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: ErrorCode.VALIDATION_ERROR, message });
  });
});
