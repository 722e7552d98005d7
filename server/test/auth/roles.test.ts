import { sql } from 'drizzle-orm';
import { AccountErrorCode, AccountMessage, RECOVERY_CODE_COUNT, SECOND_FACTOR_GUESSES } from 'shared-api/contract';
import { createUser } from '../../src/auth/accounts';
import type { ScryptCost } from '../../src/auth/passwords';
import { openDatabase } from '../../src/base/db/connection';
import { discoverRoutes } from '../hardening/routes';
import { auth, createThrowawayPostgres, enrolSecondFactor, queryRows, startTestApp, stopTestApp, totpCode, type TestContext } from '../helpers';

// Issue 35: roles (staff run the day; admins also the colleagues, privacy, breaches and calendar feed), and the
// admin's second factor, asked at the first admin action and again after 12 hours, never at the login.
jest.setTimeout(120_000);

const CHEAP: ScryptCost = { N: 1024, r: 8, p: 1 };
const ADMIN = { email: 'head@example.com', password: 'head-password-1' };
const CLERK = { email: 'clerk@example.com', password: 'clerk-password-1' };

/** Every route only an admin may call (the rest of the staff routes are for every staff member). */
const ADMIN_ROUTES = [
  'POST /auth/register',
  'GET /staff/accounts',
  'POST /staff/accounts/:id/disable',
  'POST /staff/accounts/:id/role',
  'POST /staff/accounts/:id/second-factor/reset',
  'GET /auth/second-factor',
  'POST /auth/second-factor/enrol',
  'POST /auth/second-factor/enrol/confirm',
  'POST /auth/second-factor/verify',
  'GET /staff/audit',
  'GET /staff/privacy/person',
  'GET /staff/privacy/person/export',
  'POST /staff/privacy/corrections',
  'GET /staff/privacy/requests',
  'POST /staff/privacy/requests',
  'POST /staff/privacy/requests/:id/extend',
  'POST /staff/privacy/requests/:id/answer',
  'GET /staff/breaches',
  'POST /staff/breaches',
  'POST /staff/breaches/:id/commissioner-notified',
  'GET /staff/breaches/:id/people',
  'POST /staff/breaches/:id/notify',
  'GET /staff/calendar-feed',
  'POST /staff/calendar-feed',
  'DELETE /staff/calendar-feed',
];
/** Admin routes that read no person's data and change nothing: no second factor asked (the dashboard's panels). */
const ADMIN_READS = ['GET /staff/accounts', 'GET /staff/audit', 'GET /staff/privacy/requests', 'GET /staff/breaches', 'GET /staff/calendar-feed'];
const SECOND_FACTOR_ROUTES = ADMIN_ROUTES.filter((r) => r.startsWith('GET /auth/second-factor') || r.startsWith('POST /auth/second-factor'));
/** Staff routes that end the caller's own session: called last, or not at all. */
const ENDS_SESSION = ['POST /auth/logout', 'POST /auth/logout-all'];
/** Public routes that refuse everyone, staff or not, without the platform's own secret (WhatsApp's subscription handshake). */
const OWN_SECRET = ['GET /api/whatsapp/webhook'];

let ctx: TestContext;
beforeEach(async () => {
  ctx = await startTestApp({ passwordCost: CHEAP });
  await createUser(ctx.database.db, ADMIN, CHEAP);
  await createUser(ctx.database.db, CLERK, CHEAP);
});
afterEach(() => stopTestApp(ctx));

const login = async (account: { email: string; password: string }, app = ctx) => {
  const res = await app.app.inject({ method: 'POST', url: '/auth/login', payload: account });
  expect(res.statusCode).toBe(200);
  return res.json().data.token as string;
};
const call = (route: string, token: string, payload?: object) => {
  const [method, path] = route.split(' ');
  return ctx.app.inject({ method: method as 'GET', url: path.replace(/:\w+/g, '1'), headers: auth(token), ...(payload ? { payload } : {}) });
};
const idOf = async (email: string) => (await queryRows<{ id: number }>(ctx.database, sql`SELECT id FROM users WHERE email = ${email}`))[0].id;
const audit = (action: string) => queryRows<{ actor: string; target: string | null; detail: unknown }>(ctx.database, sql`SELECT actor, target, detail FROM audit_log WHERE action = ${action} ORDER BY id`);

describe('roles', () => {
  it('the first account is the admin; a colleague is added as staff unless an admin chooses admin; the role is in GET /user', async () => {
    const admin = await login(ADMIN);
    expect((await ctx.app.inject({ url: '/user', headers: auth(admin) })).json().data.data.user.role).toBe('admin');
    expect((await ctx.app.inject({ url: '/user', headers: auth(await login(CLERK)) })).json().data.data.user.role).toBe('staff');
    await enrolSecondFactor(ctx, admin);
    const added = await call('POST /auth/register', admin, { email: 'new@example.com', password: 'long-new-pass' });
    expect(added.json().data.user.role).toBe('staff');
    const deputy = await call('POST /auth/register', admin, { email: 'deputy@example.com', password: 'long-new-pass', role: 'admin' });
    expect(deputy.json().data.user.role).toBe('admin');
    expect((await audit('account_added')).map((a) => a.detail)).toEqual([{ role: 'staff' }, { role: 'admin' }]);
  });

  it('every admin route answers a staff member 403 ADMIN_ONLY and changes nothing; every other staff route lets them in', async () => {
    const clerk = await login(CLERK);
    const staffRoutes = discoverRoutes(ctx.app)
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !ADMIN_ROUTES.includes(r));
    // The list above names only routes that exist.
    const all = discoverRoutes(ctx.app).map((r) => `${r.method} ${r.path}`);
    expect(ADMIN_ROUTES.filter((r) => !all.includes(r))).toEqual([]);
    const accountsBefore = await queryRows(ctx.database, sql`SELECT id, role, disabled_at FROM users ORDER BY id`);
    for (const route of ADMIN_ROUTES) {
      const res = await call(route, clerk, route.startsWith('POST') ? { role: 'admin', email: 'x@example.com', password: 'long-new-pass', code: '123456' } : undefined);
      expect([route, res.statusCode, res.json().error]).toEqual([route, 403, AccountErrorCode.ADMIN_ONLY]);
      expect(res.json().message).toBe(AccountMessage.adminOnly);
    }
    expect(await queryRows(ctx.database, sql`SELECT id, role, disabled_at FROM users ORDER BY id`)).toEqual(accountsBefore);
    for (const route of staffRoutes.filter((r) => !ENDS_SESSION.includes(r) && !OWN_SECRET.includes(r))) {
      const res = await call(route, clerk, route.startsWith('GET') || route.startsWith('DELETE') ? undefined : {});
      expect([route, res.statusCode === 403 ? res.json().error : 'not refused']).toEqual([route, 'not refused']);
    }
  });

  it('role changes are an admin’s, audited; the last enabled admin cannot be made staff or disabled', async () => {
    const admin = await login(ADMIN);
    await enrolSecondFactor(ctx, admin);
    const clerkId = await idOf(CLERK.email);
    const adminId = await idOf(ADMIN.email);
    const last = await call(`POST /staff/accounts/${adminId}/role`, admin, { role: 'staff' });
    expect([last.statusCode, last.json().message]).toEqual([409, AccountMessage.lastAdmin]);
    const disabled = await call(`POST /staff/accounts/${adminId}/disable`, admin);
    expect([disabled.statusCode, disabled.json().message]).toEqual([409, AccountMessage.lastAdmin]);

    expect((await call(`POST /staff/accounts/${clerkId}/role`, admin, { role: 'admin' })).statusCode).toBe(200);
    expect((await call(`POST /staff/accounts/${adminId}/role`, admin, { role: 'staff' })).statusCode).toBe(200);
    // Now staff: the admin pages are closed to the former admin at once.
    expect((await call('GET /staff/accounts', admin)).statusCode).toBe(403);
    expect((await audit('account_role_changed')).map((a) => [a.actor, a.target, a.detail])).toEqual([
      [ADMIN.email, CLERK.email, { from: 'staff', to: 'admin' }],
      [ADMIN.email, ADMIN.email, { from: 'admin', to: 'staff' }],
    ]);
    const bad = await call(`POST /staff/accounts/${clerkId}/role`, await login(CLERK), { role: 'owner' });
    expect(bad.statusCode).toBe(403); // a second factor first; the bad body is not read
  });
});

describe('the second factor', () => {
  it('is never asked at the login: an admin reads the dashboard’s panels, and is asked at the first admin action', async () => {
    const admin = await login(ADMIN);
    for (const route of ADMIN_READS) expect([route, (await call(route, admin)).statusCode]).toEqual([route, 200]);
    for (const route of ADMIN_ROUTES.filter((r) => !ADMIN_READS.includes(r) && !SECOND_FACTOR_ROUTES.includes(r))) {
      const res = await call(route, admin, route.startsWith('POST') ? {} : undefined);
      expect([route, res.statusCode, res.json().error, res.json().data]).toEqual([route, 403, AccountErrorCode.STEP_UP_REQUIRED, { enrolled: false }]);
    }
  });

  it('is enrolled with a QR code and the app’s first code; 10 recovery codes are shown once; each code works once', async () => {
    const admin = await login(ADMIN);
    const started = await call('POST /auth/second-factor/enrol', admin);
    expect(started.statusCode).toBe(200);
    const { secret, uri, qrSvg } = started.json().data;
    expect(uri).toMatch(new RegExp(`^otpauth://totp/.+head%40example\\.com\\?.*secret=${secret}`));
    expect(qrSvg).toMatch(/^<svg[^>]+viewBox/);
    const wrong = await call('POST /auth/second-factor/enrol/confirm', admin, { code: '000000' === totpCode(secret) ? '111111' : '000000' });
    expect([wrong.statusCode, wrong.json().reason]).toEqual([400, { rule: 'codeWrong' }]);
    const code = totpCode(secret);
    const confirmed = await call('POST /auth/second-factor/enrol/confirm', admin, { code });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes } = confirmed.json().data;
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    // Only hashes are kept.
    const stored = await queryRows<{ code_hash: string }>(ctx.database, sql`SELECT code_hash FROM staff_recovery_codes`);
    expect(stored.map((r) => r.code_hash)).not.toContain(recoveryCodes[0]);
    // Stepped up: admin actions now work.
    expect((await call('GET /staff/privacy/person?email=nobody@example.com', admin)).statusCode).toBe(200);
    // A second set-up is refused (a stolen session cannot swap the phone).
    expect((await call('POST /auth/second-factor/enrol', admin)).statusCode).toBe(409);

    // A new session is asked again; the code already used is refused (replay), a recovery code works once.
    const next = await login(ADMIN);
    expect((await call('GET /staff/privacy/person?email=nobody@example.com', next)).json()).toMatchObject({ error: AccountErrorCode.STEP_UP_REQUIRED, data: { enrolled: true } });
    expect((await call('POST /auth/second-factor/verify', next, { code })).statusCode).toBe(400);
    const recovered = await call('POST /auth/second-factor/verify', next, { code: recoveryCodes[0].toLowerCase() });
    expect(recovered.json().data).toMatchObject({ recoveryCodesLeft: RECOVERY_CODE_COUNT - 1, steppedUpUntil: expect.any(String) });
    const third = await login(ADMIN);
    expect((await call('POST /auth/second-factor/verify', third, { code: recoveryCodes[0] })).statusCode).toBe(400);
    expect((await audit('second_factor_enrolled')).length).toBe(1);
    expect((await audit('recovery_code_used')).map((a) => a.detail)).toEqual([{ left: RECOVERY_CODE_COUNT - 1 }]);
    expect((await audit('second_factor_failed')).length).toBe(2);
  });

  it('holds for 12 hours of a session, then is asked again', async () => {
    const admin = await login(ADMIN);
    const { secret } = await enrolSecondFactor(ctx, admin);
    expect((await call('POST /staff/breaches/1/commissioner-notified', admin)).statusCode).toBe(404);
    await ctx.database.db.execute(sql`UPDATE sessions SET stepped_up_at = now() - interval '12 hours 1 minute'`);
    expect((await call('POST /staff/breaches/1/commissioner-notified', admin)).json().error).toBe(AccountErrorCode.STEP_UP_REQUIRED);
    // The next step's code (the phone a little ahead): accepted once.
    const verified = await call('POST /auth/second-factor/verify', admin, { code: totpCode(secret, Date.now() + 30_000) });
    expect(verified.statusCode).toBe(200);
    expect((await call('POST /staff/breaches/1/commissioner-notified', admin)).statusCode).toBe(404);
  });

  it(`refuses guessing: after ${SECOND_FACTOR_GUESSES} codes in 15 minutes even the right one waits (429)`, async () => {
    const admin = await login(ADMIN);
    const { secret } = await enrolSecondFactor(ctx, admin);
    const next = await login(ADMIN);
    for (let i = 0; i < SECOND_FACTOR_GUESSES; i++) expect((await call('POST /auth/second-factor/verify', next, { code: '99999' + (i % 10) })).statusCode).toBe(400);
    const right = await call('POST /auth/second-factor/verify', next, { code: totpCode(secret, Date.now() + 30_000) });
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('an admin resets a colleague’s lost second factor (audited); never their own', async () => {
    const admin = await login(ADMIN);
    await enrolSecondFactor(ctx, admin);
    const adminId = await idOf(ADMIN.email);
    expect((await call(`POST /staff/accounts/${adminId}/second-factor/reset`, admin)).statusCode).toBe(403);
    const clerkId = await idOf(CLERK.email);
    await call(`POST /staff/accounts/${clerkId}/role`, admin, { role: 'admin' });
    const clerk = await login(CLERK);
    await enrolSecondFactor(ctx, clerk);
    expect((await call(`POST /staff/accounts/${clerkId}/second-factor/reset`, admin)).statusCode).toBe(200);
    expect((await call('GET /staff/privacy/person?email=nobody@example.com', clerk)).json()).toMatchObject({ data: { enrolled: false } });
    expect((await audit('second_factor_reset')).map((a) => a.target)).toEqual([CLERK.email]);
  });
});

describe('common passwords', () => {
  it('a new colleague’s password and a reset’s new password may not be one of the most common passwords', async () => {
    const admin = await login(ADMIN);
    await enrolSecondFactor(ctx, admin);
    for (const password of ['password', 'Qwerty123', 'iloveyou']) {
      const res = await call('POST /auth/register', admin, { email: 'new@example.com', password });
      expect([password, res.statusCode, res.json().message, res.json().reason]).toEqual([password, 400, AccountMessage.commonPassword, { rule: 'commonPassword' }]);
    }
    expect(await queryRows(ctx.database, sql`SELECT id FROM users WHERE email = 'new@example.com'`)).toEqual([]);
    // The spec's own rule still comes first and in its own words.
    expect((await call('POST /auth/register', admin, { email: 'new@example.com', password: 'abcd' })).json().message).toMatch(/min length is 5/i);

    await ctx.app.inject({ method: 'POST', url: '/auth/password-reset/request', payload: { email: CLERK.email } });
    const [mail] = await queryRows<{ text_body: string }>(ctx.database, sql`SELECT text_body FROM mail_outbox WHERE kind = 'staff_password_reset'`);
    const token = /\/reset-password\/([A-Za-z0-9_-]{43})/.exec(mail.text_body)![1];
    const common = await ctx.app.inject({ method: 'POST', url: '/auth/password-reset/confirm', payload: { token, password: 'letmein1' } });
    expect([common.statusCode, common.json().reason]).toEqual([400, { rule: 'commonPassword' }]);
    // The link still works for a good password.
    expect((await ctx.app.inject({ method: 'POST', url: '/auth/password-reset/confirm', payload: { token, password: 'a-long-unusual-phrase' } })).statusCode).toBe(200);
  });
});

describe('on PostgreSQL with two API processes', () => {
  it('one code sent to both at once is accepted once; two admins making each other staff at once leave one admin', async () => {
    const { url, drop } = await createThrowawayPostgres('roles');
    const apps: TestContext[] = [];
    try {
      for (let i = 0; i < 2; i++) apps.push(await startTestApp({ passwordCost: CHEAP }, await openDatabase({ driver: 'postgres', url })));
      const [a, b] = apps;
      const ids: number[] = [];
      for (const account of [ADMIN, CLERK]) ids.push((await createUser(a.database.db, { ...account, role: 'admin' }, CHEAP))!.id);
      const admin = await login(ADMIN, a);
      const { secret } = await enrolSecondFactor(a, admin);
      const [s1, s2] = [await login(ADMIN, a), await login(ADMIN, b)];
      const code = totpCode(secret, Date.now() + 30_000);
      const answers = await Promise.all([
        a.app.inject({ method: 'POST', url: '/auth/second-factor/verify', headers: auth(s1), payload: { code } }),
        b.app.inject({ method: 'POST', url: '/auth/second-factor/verify', headers: auth(s2), payload: { code } }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);

      const clerk = await login(CLERK, b);
      await enrolSecondFactor(b, clerk);
      const demotions = await Promise.all([
        a.app.inject({ method: 'POST', url: `/staff/accounts/${ids[1]}/role`, headers: auth(admin), payload: { role: 'staff' } }),
        b.app.inject({ method: 'POST', url: `/staff/accounts/${ids[0]}/role`, headers: auth(clerk), payload: { role: 'staff' } }),
      ]);
      expect(demotions.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const admins = await queryRows<{ n: number }>(a.database, sql`SELECT count(*)::int AS n FROM users WHERE role = 'admin' AND disabled_at IS NULL`);
      expect(admins[0].n).toBe(1);
    } finally {
      for (const app of apps) await stopTestApp(app);
      await drop();
    }
  });
});
