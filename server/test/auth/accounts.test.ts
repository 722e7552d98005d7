import { sql } from 'drizzle-orm';
import { AccountMessage, ErrorCode } from 'shared-api/contract';
import { createUser } from '../../src/auth/accounts';
import { RESET_REQUESTS_PER_ACCOUNT, RESET_REQUESTS_PER_ADDRESS, RESET_GUESS_LIMIT } from '../../src/auth/password-reset';
import type { ScryptCost } from '../../src/auth/passwords';
import { sha256 } from '../../src/base/crypto';
import { openDatabase } from '../../src/base/db/connection';
import { stuckMail } from '../../src/ops/stuck-mail';
import { LoginMessage } from '../../src/auth/routes';
import { auth, createThrowawayPostgres, enrolSecondFactor, queryRows, startTestApp, stopTestApp, type TestContext } from '../helpers';

jest.setTimeout(120_000);

const CHEAP: ScryptCost = { N: 1024, r: 8, p: 1 };
const ANNE = { email: 'anne@example.com', password: 'anne-password-1' };
const BEN = { email: 'ben@example.com', password: 'ben-password-1' };

let ctx: TestContext;
beforeEach(async () => {
  ctx = await startTestApp({ passwordCost: CHEAP });
  await createUser(ctx.database.db, ANNE, CHEAP);
  await createUser(ctx.database.db, BEN, CHEAP);
});
afterEach(() => stopTestApp(ctx));

const login = (account: { email: string; password: string }) => ctx.app.inject({ method: 'POST', url: '/auth/login', payload: account });
const tokenOf = async (account: { email: string; password: string }) => {
  const res = await login(account);
  expect(res.statusCode).toBe(200);
  return res.json().data.token as string;
};
/** ANNE is the first account, so the admin: her token with the second factor given, for the colleagues routes. */
const adminTokenOf = async (account: { email: string; password: string }) => {
  const token = await tokenOf(account);
  await enrolSecondFactor(ctx, token);
  return token;
};
const whoAmI = (token: string) => ctx.app.inject({ url: '/user', headers: auth(token) });
const requestReset = (email: string, remoteAddress = '10.0.0.1') =>
  ctx.app.inject({ method: 'POST', url: '/auth/password-reset/request', payload: { email }, remoteAddress });
const confirmReset = (token: string, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/auth/password-reset/confirm', payload: { token, password } });
const checkReset = (token: string, remoteAddress = '10.0.0.1') =>
  ctx.app.inject({ method: 'POST', url: '/auth/password-reset/check', payload: { token }, remoteAddress });
const resetMails = () =>
  queryRows<{ recipient: string; text_body: string; html_body: string; payment_id: string | null; message_id: string }>(
    ctx.database,
    sql`SELECT recipient, text_body, html_body, payment_id, message_id FROM mail_outbox WHERE kind = 'staff_password_reset' ORDER BY id`,
  );
const passwordHashOf = async (email: string) =>
  (await queryRows<{ password_hash: string }>(ctx.database, sql`SELECT password_hash FROM users WHERE email = ${email}`))[0].password_hash;
const tokenFromMail = (text: string) => /\/reset-password\/([A-Za-z0-9_-]{43})/.exec(text)![1];

const audit = (action: string) =>
  queryRows<{ actor: string; actor_user_id: number | null; target: string | null; ip: string | null }>(
    ctx.database,
    sql`SELECT actor, actor_user_id, target, ip FROM audit_log WHERE action = ${action} ORDER BY id`,
  );

/** Asks for a reset of ANNE and returns the token of the mailed link. */
async function mailedToken(): Promise<string> {
  expect((await requestReset(ANNE.email)).statusCode).toBe(200);
  const mails = await resetMails();
  return tokenFromMail(mails[mails.length - 1].text_body);
}

describe('POST /auth/logout-all', () => {
  it('ends every session of the signed-in account, not a colleague’s', async () => {
    const [first, second, other] = [await tokenOf(ANNE), await tokenOf(ANNE), await tokenOf(BEN)];
    const res = await ctx.app.inject({ method: 'POST', url: '/auth/logout-all', headers: auth(first) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { revoked: 2 }, message: AccountMessage.loggedOutEverywhere });
    expect((await whoAmI(first)).statusCode).toBe(401);
    expect((await whoAmI(second)).statusCode).toBe(401);
    expect((await whoAmI(other)).statusCode).toBe(200);
    expect(await audit('logout_all')).toEqual([expect.objectContaining({ actor: ANNE.email, actor_user_id: expect.any(Number) })]);
  });

  it('answers 401 without a staff token and revokes nothing', async () => {
    const token = await tokenOf(ANNE);
    expect((await ctx.app.inject({ method: 'POST', url: '/auth/logout-all' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'POST', url: '/auth/logout-all', headers: auth('forged') })).statusCode).toBe(401);
    expect((await whoAmI(token)).statusCode).toBe(200);
    expect(await audit('logout_all')).toEqual([]);
  });
});

describe('forgot password', () => {
  it('answers an unknown address exactly as a known one, and mails only the known one', async () => {
    const unknown = await requestReset('nobody@example.com');
    const known = await requestReset(ANNE.email.toUpperCase());
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ success: true, data: null, message: AccountMessage.resetRequested });
    expect(known.json()).toEqual(unknown.json());
    const mails = await resetMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ recipient: ANNE.email, payment_id: null });
    const token = tokenFromMail(mails[0].text_body);
    expect(mails[0].text_body).toContain(`${ctx.config.payments.publicSiteUrl}/reset-password/${token}`);
    expect(mails[0].html_body).toContain(`/reset-password/${token}`);
    expect(mails[0].message_id).not.toContain(token);
    // Only the token's SHA-256 is stored, with a 30-minute expiry.
    const rows = await queryRows<{ token_hash: string; minutes: number }>(
      ctx.database,
      sql`SELECT token_hash, round(extract(epoch from expires_at - created_at) / 60)::int AS minutes FROM password_resets`,
    );
    expect(rows).toEqual([{ token_hash: sha256(token), minutes: 30 }]);
    // Recorded for the account that exists only.
    expect(await audit('password_reset_requested')).toEqual([expect.objectContaining({ actor: ANNE.email, target: ANNE.email, ip: '10.0.0.1' })]);
  });

  it('only the newest link works: an older one sent before it is refused, and the newest sets the password', async () => {
    const older = await mailedToken();
    expect((await requestReset(ANNE.email)).statusCode).toBe(200);
    const mails = await resetMails();
    const newer = tokenFromMail(mails[mails.length - 1].text_body);
    expect(newer).not.toBe(older);
    const refused = await confirmReset(older, 'brand-new-password');
    expect([refused.statusCode, refused.json().message]).toEqual([400, AccountMessage.resetInvalid]);
    expect((await confirmReset(newer, 'brand-new-password')).statusCode).toBe(200);
  });

  it('refuses a malformed address with 400 and stores nothing', async () => {
    const res = await requestReset('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(await resetMails()).toHaveLength(0);
  });

  it('sets the new password once, ends every session, and refuses the same link again', async () => {
    const session = await tokenOf(ANNE);
    const token = await mailedToken();
    const done = await confirmReset(token, 'brand-new-password');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ success: true, data: null, message: AccountMessage.resetDone });
    expect((await whoAmI(session)).statusCode).toBe(401);
    expect((await login(ANNE)).statusCode).toBe(401);
    expect((await login({ email: ANNE.email, password: 'brand-new-password' })).statusCode).toBe(200);
    expect(await audit('password_reset')).toHaveLength(1);

    const hash = await passwordHashOf(ANNE.email);
    const again = await confirmReset(token, 'another-password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ success: false, error: ErrorCode.VALIDATION_ERROR, message: AccountMessage.resetInvalid });
    expect(await passwordHashOf(ANNE.email)).toBe(hash);
  });

  it('refuses an expired link, a wrong one, and a too-short password, changing nothing', async () => {
    const session = await tokenOf(ANNE);
    const token = await mailedToken();
    const hash = await passwordHashOf(ANNE.email);

    expect((await confirmReset(token, 'abcd')).statusCode).toBe(400);
    expect((await confirmReset('x'.repeat(43), 'long-enough-password')).json().message).toBe(AccountMessage.resetInvalid);

    await ctx.database.db.execute(sql`UPDATE password_resets SET created_at = created_at - interval '31 minutes', expires_at = expires_at - interval '31 minutes'`);
    const expired = await confirmReset(token, 'long-enough-password');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(AccountMessage.resetInvalid);
    expect(await passwordHashOf(ANNE.email)).toBe(hash);
    expect((await whoAmI(session)).statusCode).toBe(200);
    expect(await audit('password_reset')).toEqual([]);
  });

  it('says whether a link works before the form (and nothing else), changing nothing; spent links are counted per network', async () => {
    const token = await mailedToken();
    const hash = await passwordHashOf(ANNE.email);
    const works = await checkReset(token);
    expect(works.statusCode).toBe(200);
    expect(works.json()).toEqual({ success: true, data: { usable: true }, message: 'This reset link works' });
    // Asking changes nothing: the link still sets a password once.
    expect(await passwordHashOf(ANNE.email)).toBe(hash);
    expect((await confirmReset(token, 'brand-new-password')).statusCode).toBe(200);
    const used = await checkReset(token);
    expect(used.statusCode).toBe(400);
    expect(used.json()).toEqual({ success: false, data: null, error: ErrorCode.VALIDATION_ERROR, message: AccountMessage.resetInvalid });
    expect(JSON.stringify(used.json())).not.toContain(ANNE.email);

    // Guessing: past the limit of links that do not work, that network is refused; a working link still answers there.
    const fresh = await mailedToken();
    for (let i = 0; i < RESET_GUESS_LIMIT.limit; i++) expect((await checkReset(`guess-${i}`, '10.9.0.9')).statusCode).toBe(400);
    const refused = await checkReset('guess-last', '10.9.0.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await checkReset(fresh, '10.9.0.9')).statusCode).toBe(200);
    expect((await checkReset('guess-elsewhere', '10.7.0.1')).statusCode).toBe(400);
  });

  it('a link still works 29 minutes on', async () => {
    const token = await mailedToken();
    await ctx.database.db.execute(sql`UPDATE password_resets SET created_at = created_at - interval '29 minutes', expires_at = expires_at - interval '29 minutes'`);
    expect((await confirmReset(token, 'long-enough-password')).statusCode).toBe(200);
  });

  it('one new password ends every other outstanding link of the account', async () => {
    const first = await mailedToken();
    const second = await mailedToken();
    expect((await confirmReset(second, 'long-enough-password')).statusCode).toBe(200);
    expect((await confirmReset(first, 'other-long-password')).statusCode).toBe(400);
  });

  it('mails an address at most RESET_REQUESTS_PER_ACCOUNT times an hour, answering the same each time', async () => {
    for (let i = 0; i < RESET_REQUESTS_PER_ACCOUNT + 2; i++) {
      const res = await requestReset(ANNE.email, `10.1.0.${i}`);
      expect(res.json()).toEqual({ success: true, data: null, message: AccountMessage.resetRequested });
    }
    expect(await resetMails()).toHaveLength(RESET_REQUESTS_PER_ACCOUNT);
  });

  it('refuses an address after RESET_REQUESTS_PER_ADDRESS requests an hour (any accounts), others go on', async () => {
    for (let i = 0; i < RESET_REQUESTS_PER_ADDRESS; i++) expect((await requestReset(`x${i}@example.com`, '10.2.0.1')).statusCode).toBe(200);
    const refused = await requestReset(BEN.email, '10.2.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(AccountMessage.resetTooMany);
    expect(await resetMails()).toHaveLength(0);
    expect((await requestReset(BEN.email, '10.2.0.2')).statusCode).toBe(200);
    expect(await resetMails()).toHaveLength(1);
  });

  it('a stuck reset mail (no payment) is listed in the staff alerts', async () => {
    await requestReset(ANNE.email);
    await ctx.database.db.execute(sql`UPDATE mail_outbox SET created_at = now() - interval '2 hours'`);
    const { total, items } = await stuckMail(ctx.database.db, 10);
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({ kind: 'staff_password_reset', recipient: ANNE.email, paymentReference: '—' });
  });
});

describe('colleagues', () => {
  const list = (token: string) => ctx.app.inject({ url: '/staff/accounts', headers: auth(token) });
  const disable = (token: string, id: number | string) =>
    ctx.app.inject({ method: 'POST', url: `/staff/accounts/${id}/disable`, headers: auth(token) });
  const idOf = async (email: string) => (await queryRows<{ id: number }>(ctx.database, sql`SELECT id FROM users WHERE email = ${email}`))[0].id;

  it('lists every account with its last login; 401 without a token', async () => {
    const token = await adminTokenOf(ANNE);
    expect((await ctx.app.inject({ url: '/staff/accounts' })).statusCode).toBe(401);
    const res = await list(token);
    expect(res.statusCode).toBe(200);
    const accounts = res.json().data.accounts;
    expect(accounts.map((a: { email: string }) => a.email)).toEqual([ANNE.email, BEN.email]);
    expect(accounts[0]).toMatchObject({ username: null, disabledAt: null, lastLoginAt: expect.any(String), createdAt: expect.any(String) });
    expect(accounts[1].lastLoginAt).toBeNull();
  });

  it('disabling ends the account’s sessions at once; it then logs in like a wrong password and gets no reset mail', async () => {
    const [anne, ben] = [await adminTokenOf(ANNE), await tokenOf(BEN)];
    const res = await disable(anne, await idOf(BEN.email));
    expect(res.statusCode).toBe(200);
    expect((await whoAmI(ben)).statusCode).toBe(401);
    const refused = await login(BEN);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(LoginMessage.invalid);
    expect((await requestReset(BEN.email)).json().message).toBe(AccountMessage.resetRequested);
    expect(await resetMails()).toHaveLength(0);
    expect((await list(anne)).json().data.accounts[1].disabledAt).toEqual(expect.any(String));
    expect(await audit('account_disabled')).toEqual([expect.objectContaining({ actor: ANNE.email, target: BEN.email })]);
  });

  it('a reset link of an account disabled since is refused', async () => {
    const anne = await adminTokenOf(ANNE);
    await requestReset(BEN.email);
    const token = tokenFromMail((await resetMails())[0].text_body);
    await disable(anne, await idOf(BEN.email));
    expect((await confirmReset(token, 'long-enough-password')).statusCode).toBe(400);
  });

  it('refuses the last active account with 409, an unknown one with 404, a bad id with 400', async () => {
    const anne = await adminTokenOf(ANNE);
    expect((await disable(anne, await idOf(BEN.email))).statusCode).toBe(200);
    const last = await disable(anne, await idOf(ANNE.email));
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe(AccountMessage.lastActiveAccount);
    expect((await whoAmI(anne)).statusCode).toBe(200);
    expect(await audit('account_disabled')).toHaveLength(1);
    expect((await disable(anne, 99999)).statusCode).toBe(404);
    expect((await disable(anne, 'abc')).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'POST', url: `/staff/accounts/${await idOf(ANNE.email)}/disable` })).statusCode).toBe(401);
  });
});

describe('on PostgreSQL with two API processes', () => {
  it('two admins disabling each other at once leave one enabled account', async () => {
    const { url, drop } = await createThrowawayPostgres('accounts');
    const apps: TestContext[] = [];
    try {
      for (let i = 0; i < 2; i++) apps.push(await startTestApp({ passwordCost: CHEAP }, await openDatabase({ driver: 'postgres', url })));
      const [a, b] = apps;
      const ids: number[] = [];
      for (const account of [ANNE, BEN]) ids.push((await createUser(a.database.db, { ...account, role: 'admin' }, CHEAP))!.id);
      const tokenFor = async (app: TestContext, account: typeof ANNE) => {
        const token = (await app.app.inject({ method: 'POST', url: '/auth/login', payload: account })).json().data.token as string;
        await enrolSecondFactor(app, token);
        return token;
      };
      const [anne, ben] = [await tokenFor(a, ANNE), await tokenFor(b, BEN)];
      const answers = await Promise.all([
        a.app.inject({ method: 'POST', url: `/staff/accounts/${ids[1]}/disable`, headers: auth(anne) }),
        b.app.inject({ method: 'POST', url: `/staff/accounts/${ids[0]}/disable`, headers: auth(ben) }),
      ]);
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes[1]).not.toBe(200);
      const enabled = await queryRows<{ n: number }>(a.database, sql`SELECT count(*)::int AS n FROM users WHERE disabled_at IS NULL`);
      expect(enabled[0].n).toBe(1);
    } finally {
      for (const app of apps) await stopTestApp(app);
      await drop();
    }
  });
});
