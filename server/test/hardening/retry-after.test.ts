import { ErrorCode, PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { buildApp, type App } from '../../src/app';
import { MANAGE_GUESS_LIMIT } from '../../src/manage/service';
import { FAKE_WHATSAPP } from '../../src/whatsapp';
import { MAX_BROWSER_TOKENS } from '../../src/bookings/tokens';
import { FEED_GUESS_LIMIT } from '../../src/calendar/feed';
import { RESET_GUESS_LIMIT, RESET_REQUESTS_PER_ADDRESS } from '../../src/auth/password-reset';
import type { ScryptCost } from '../../src/auth/passwords';
import { loadConfig } from '../../src/config';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { AppError } from '../../src/base/errors';
import { DEFAULT_RETRY_AFTER_SECONDS } from '../../src/base/plugins/retry-after';
import { auth, enrolSecondFactor, freshPglite, insertSlot, startTestApp, stopTestApp, type TestContext } from '../helpers';
import { createUser } from '../../src/auth/accounts';
import { unknownToken, validTokens, type ValidTokens } from '../limits/token-fixtures';
import { initiateBody } from '../payments/support';
import { FREE_JOINS_PER_NETWORK, WAITLIST_GUESS_LIMIT } from '../../src/waitlist/service';
import { UPLOADS_PER_LINK } from '../../src/documents/service';
import { addDays, dateInMY } from 'shared-api/contract';
import { confirmTokenFor, joinBody, parent, weekdayFrom } from '../waitlist/support';

// Every 429 the API sends says when to ask again. Each route that can answer 429 is driven into it here, and the
// OpenAPI document's list of routes answering 429 must be covered by this walk.
jest.setTimeout(120_000);

const CHEAP: ScryptCost = { N: 1024, r: 8, p: 1 };
type Refusal = { statusCode: number; headers: Record<string, unknown>; json: () => { error?: string } };

/** A 429 with a whole, positive Retry-After. */
function expectRetryAfter(res: Refusal) {
  expect(res.statusCode).toBe(429);
  expect(String(res.headers['retry-after'])).toMatch(/^[1-9]\d*$/);
}

describe('Retry-After on every 429 (PGlite)', () => {
  let ctx: TestContext;
  let tokens: ValidTokens;
  const covered = new Set<string>();
  const inject = (route: string, url: string, payload: object | undefined, remoteAddress: string, headers: Record<string, string> = {}) => {
    covered.add(route);
    const [method] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE'];
    return ctx.app.inject({ method, url, payload, remoteAddress, headers });
  };
  /** Asks until the answer is 429 (at most `max` times) and returns it. */
  const until429 = async (max: number, ask: (i: number) => Promise<Refusal>) => {
    for (let i = 0; i < max; i++) {
      const res = await ask(i);
      if (res.statusCode === 429) return res;
    }
    throw new Error(`no 429 in ${max} requests`);
  };

  beforeAll(async () => {
    ctx = await startTestApp({ passwordCost: CHEAP, loginRateLimitPerMinute: 3 });
    tokens = await validTokens(ctx.database, CHEAP);
  });
  afterAll(() => stopTestApp(ctx));

  it('POST /auth/login: too many attempts from one address, and too many failures on one account from one', async () => {
    expectRetryAfter(await until429(4, (i) => inject('POST /auth/login', '/auth/login', { email: `n${i}@example.com`, password: 'x' }, '10.31.0.1')));
    // The account-and-address limit (10 wrong passwords) is reached before the address limit, raised for it.
    ctx.config.loginRateLimitPerMinute = 1000;
    expectRetryAfter(await until429(11, (i) => inject('POST /auth/login', '/auth/login', { email: tokens.resetEmail, password: `wrong-${i}` }, '10.31.2.1')));
    ctx.config.loginRateLimitPerMinute = 3;
  });

  it('POST /auth/password-reset/request, /check and /confirm: too many requests, too many unknown links', async () => {
    expectRetryAfter(
      await until429(RESET_REQUESTS_PER_ADDRESS + 1, (i) =>
        inject('POST /auth/password-reset/request', '/auth/password-reset/request', { email: `r${i}@example.com` }, '10.32.0.1'),
      ),
    );
    expectRetryAfter(
      await until429(RESET_GUESS_LIMIT.limit + 1, () =>
        inject('POST /auth/password-reset/confirm', '/auth/password-reset/confirm', { token: unknownToken(), password: 'long-enough-pw-1' }, '10.32.0.2'),
      ),
    );
    expectRetryAfter(
      await until429(RESET_GUESS_LIMIT.limit + 1, () =>
        inject('POST /auth/password-reset/check', '/auth/password-reset/check', { token: unknownToken() }, '10.32.0.3'),
      ),
    );
  });

  it('the manage routes: too many unknown links (view, reschedule, cancel, manage-link) and too many browser links', async () => {
    const address = '10.33.0.1';
    expectRetryAfter(await until429(MANAGE_GUESS_LIMIT.limit + 1, () => inject('GET /api/booking/manage/:token', `/api/booking/manage/${unknownToken()}`, undefined, address)));
    expectRetryAfter(await inject('POST /api/booking/manage/:token/reschedule', `/api/booking/manage/${unknownToken()}/reschedule`, { slotId: 1 }, address));
    expectRetryAfter(await inject('POST /api/booking/manage/:token/cancel', `/api/booking/manage/${unknownToken()}/cancel`, { expectedRefundSen: 0 }, address));
    expectRetryAfter(await inject('POST /api/booking/manage/:token/whatsapp-off', `/api/booking/manage/${unknownToken()}/whatsapp-off`, undefined, address));
    expectRetryAfter(await inject('POST /api/booking/manage-link', '/api/booking/manage-link', { paymentId: 'pay_unknown' }, address));
    // The per-booking cap on browser links is no window: it still names a wait.
    expectRetryAfter(await until429(MAX_BROWSER_TOKENS + 1, () => inject('POST /api/booking/manage-link', '/api/booking/manage-link', { paymentId: tokens.paymentId }, '10.33.0.2', { [PAYMENT_KEY_HEADER]: tokens.paymentKey })));
  });

  it('the documents routes (issue 40): too many unknown links, and too many uploads through one link', async () => {
    const address = '10.33.1.1';
    const documents = (token: string) => `/api/booking/manage/${token}/documents`;
    expectRetryAfter(await until429(MANAGE_GUESS_LIMIT.limit + 1, () => inject('GET /api/booking/manage/:token/documents', documents(unknownToken()), undefined, address)));
    expectRetryAfter(await inject('PUT /api/booking/manage/:token/documents/:position/:kind', `${documents(unknownToken())}/1/guardianId`, undefined, address));
    expectRetryAfter(await inject('DELETE /api/booking/manage/:token/documents/:position/:kind', `${documents(unknownToken())}/1/guardianId`, undefined, address));
    expectRetryAfter(await inject('POST /api/booking/manage/:token/registration-form', `/api/booking/manage/${unknownToken()}/registration-form`, { done: true }, address));
    // A good link past its uploads in the window (each refused before its body is read).
    expectRetryAfter(await until429(UPLOADS_PER_LINK + 1, () => inject('PUT /api/booking/manage/:token/documents/:position/:kind', `${documents(tokens.manageToken)}/1/guardianId`, undefined, '10.33.1.2')));
  });

  it('GET /calendar/:token.ics: too many unknown feed links', async () => {
    expectRetryAfter(await until429(FEED_GUESS_LIMIT.limit + 1, () => inject('GET /calendar/:token.ics', `/calendar/${unknownToken()}.ics`, undefined, '10.34.0.1')));
  });

  it('POST /slot/:id/reserve and /api/payment/initiate: a client over its free holds', async () => {
    const slots: { id: number; startAt: Date }[] = [];
    for (let i = 0; i < 40; i++) slots.push(await insertSlot(ctx.database, 72 + i));
    const held = await until429(slots.length, (i) => inject('POST /slot/:id/reserve', `/slot/${slots[i].id}/reserve`, { minutes: 15 }, '10.35.0.1'));
    expectRetryAfter(held);
    expect(held.json().error).toBe(ErrorCode.HOLD_LIMIT);
    const initiated = await until429(slots.length, (i) =>
      inject(
        'POST /api/payment/initiate',
        '/api/payment/initiate',
        initiateBody(slots[slots.length - 1 - i], { visitorEmail: `hold${i}@example.com`, visitorContactNo: `01${String(20_000_000 + i)}` }),
        '10.35.0.2',
      ),
    );
    expectRetryAfter(initiated);
    expect(initiated.json().error).toBe(ErrorCode.HOLD_LIMIT);
  });

  it('the waitlist: a network at its live entries or over its free joins, and too many unknown links (entry and offer routes)', async () => {
    const fromDate = weekdayFrom(addDays(dateInMY(new Date()), 2));
    const range = { fromDate, toDate: addDays(fromDate, 7) };
    // The fourth new entry from one network: its live entries (3, each confirmed from its mail) are full before any work is asked.
    for (let i = 0; i < FREE_JOINS_PER_NETWORK; i++) {
      expect((await inject('POST /api/waitlist', '/api/waitlist', joinBody(500 + i, range), '10.36.0.1')).statusCode).toBe(202);
      const token = await confirmTokenFor(ctx, parent(500 + i).email);
      expect((await inject('POST /api/waitlist/entry/:token/confirm', `/api/waitlist/entry/${token}/confirm`, undefined, '10.36.0.1')).statusCode).toBe(200);
    }
    const full = await inject('POST /api/waitlist', '/api/waitlist', joinBody(500 + FREE_JOINS_PER_NETWORK, range), '10.36.0.1');
    expectRetryAfter(full);
    expect(full.json().error).toBe(ErrorCode.RATE_LIMITED);
    // Joining again with an entry it has (a new link by mail), past the free joins of the hour: work asked.
    const again = await until429(FREE_JOINS_PER_NETWORK + 1, () => inject('POST /api/waitlist', '/api/waitlist', joinBody(600, range), '10.36.2.1'));
    expectRetryAfter(again);
    expect(again.json().error).toBe(ErrorCode.HOLD_LIMIT);
    const address = '10.36.1.1';
    expectRetryAfter(await until429(WAITLIST_GUESS_LIMIT.limit + 1, () => inject('GET /api/waitlist/entry/:token', `/api/waitlist/entry/${unknownToken()}`, undefined, address)));
    expectRetryAfter(await inject('PUT /api/waitlist/entry/:token', `/api/waitlist/entry/${unknownToken()}`, { ...range, partOfDay: 'any' }, address));
    expectRetryAfter(await inject('POST /api/waitlist/entry/:token/leave', `/api/waitlist/entry/${unknownToken()}/leave`, undefined, address));
    expectRetryAfter(await inject('POST /api/waitlist/entry/:token/confirm', `/api/waitlist/entry/${unknownToken()}/confirm`, undefined, address));
    expectRetryAfter(await inject('POST /api/waitlist/entry/:token/not-me', `/api/waitlist/entry/${unknownToken()}/not-me`, undefined, address));
    expectRetryAfter(await inject('GET /api/waitlist/offer/:token', `/api/waitlist/offer/${unknownToken()}`, undefined, address));
    expectRetryAfter(await inject('POST /api/waitlist/offer/:token/accept', `/api/waitlist/offer/${unknownToken()}/accept`, undefined, address));
    expectRetryAfter(await inject('POST /api/waitlist/offer/:token/decline', `/api/waitlist/offer/${unknownToken()}/decline`, undefined, address));
  });

  it('GET /public/list/changes: a network past its waits', async () => {
    const version = (await ctx.app.inject({ url: '/public/list/changes' })).json().data.version as number;
    const waits = Array.from({ length: 4 }, (_, i) => ctx.app.inject({ url: `/public/list/changes?after=${version}`, remoteAddress: `10.37.0.${i + 1}` }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expectRetryAfter(await inject('GET /public/list/changes', `/public/list/changes?after=${version}`, undefined, '10.37.0.9'));
    await insertSlot(ctx.database, 50);
    await Promise.all(waits);
  });

  it('POST /auth/second-factor/enrol/confirm and /verify: too many codes for one admin', async () => {
    const login = async (email: string, remoteAddress: string) => {
      const res = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'admin-pass-1' }, remoteAddress });
      return res.json().data.token as string;
    };
    await createUser(ctx.database.db, { email: 'setting-up@example.com', password: 'admin-pass-1', role: 'admin' }, CHEAP);
    const settingUp = await login('setting-up@example.com', '10.36.0.1');
    await ctx.app.inject({ method: 'POST', url: '/auth/second-factor/enrol', headers: auth(settingUp) });
    expectRetryAfter(await until429(7, () => inject('POST /auth/second-factor/enrol/confirm', '/auth/second-factor/enrol/confirm', { code: 'abcdef' }, '10.36.0.1', auth(settingUp))));
    await createUser(ctx.database.db, { email: 'enrolled@example.com', password: 'admin-pass-1', role: 'admin' }, CHEAP);
    await enrolSecondFactor(ctx, await login('enrolled@example.com', '10.36.0.2'));
    const next = await login('enrolled@example.com', '10.36.0.3');
    expectRetryAfter(await until429(7, () => inject('POST /auth/second-factor/verify', '/auth/second-factor/verify', { code: 'abcdef' }, '10.36.0.3', auth(next))));
  });

  it("the local fake of WhatsApp's Cloud API, when it plays a throttled platform", async () => {
    ctx.app.whatsapp.fake!.refuseNext(1, 429, 130429, 'Rate limit hit');
    const auth = { authorization: `Bearer ${FAKE_WHATSAPP.accessToken}` };
    const body = { messaging_product: 'whatsapp', to: '60123456789', type: 'text', text: { body: 'hi' } };
    expectRetryAfter(await inject('POST /fake-whatsapp/:version/:phoneNumberId/messages', `/fake-whatsapp/v21.0/${FAKE_WHATSAPP.phoneNumberId}/messages`, body, '10.37.0.1', auth));
  });

  it('covers every route the OpenAPI document says may answer 429', async () => {
    const doc = (await ctx.app.inject({ url: '/docs/json' })).json() as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => op.responses && '429' in op.responses)
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.length).toBeGreaterThan(0);
    for (const route of documented) expect(covered).toContain(route);
  });
});

describe('a 429 whose route names no wait', () => {
  let app: App;
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await freshPglite();
    app = await buildApp({ database, config: loadConfig({}), logger: false });
    // Routes written without thinking of Retry-After, as a future one might be.
    app.get('/test/bare-429', async (_request, reply) => reply.code(429).send({ success: false, data: null, message: 'Slow down.', error: 'RATE_LIMITED' }));
    app.get('/test/thrown-429', async () => {
      throw new AppError(429, ErrorCode.RATE_LIMITED, 'Slow down.');
    });
    app.get('/test/named-429', async () => {
      throw new AppError(429, ErrorCode.RATE_LIMITED, 'Slow down.', 12.2);
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('gets the default Retry-After, sent or thrown; a named wait is kept (whole seconds, rounded up)', async () => {
    for (const url of ['/test/bare-429', '/test/thrown-429']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe(String(DEFAULT_RETRY_AFTER_SECONDS));
    }
    expect((await app.inject({ url: '/test/named-429' })).headers['retry-after']).toBe('13');
    // Other answers carry none.
    expect((await app.inject({ url: '/health' })).headers['retry-after']).toBeUndefined();
  });
});
