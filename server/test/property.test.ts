import fc from 'fast-check';
import { z } from 'zod';
import {
  bookSlotBodySchema,
  createSlotBodySchema,
  deleteSlotBodySchema,
  HOLD_MINUTES,
  publicListQuerySchema,
  registerBodySchema,
  reserveBodySchema,
  slotIdParamSchema,
} from 'shared-api/contract';
import { auth, insertSlot, startTestApp, adminToken, stopTestApp, visitor, type TestContext } from './helpers';
import { snapshotAllTables } from './hardening/routes';

// Malformed bodies, ids, dates and tokens at the slot and auth routes: never a 5xx, never a changed row (in any table).
// hardening/fuzz-every-route.test.ts sends NUL, surrogates, out-of-range numbers and long text to every route.
jest.setTimeout(60_000);
const RUNS = { numRuns: 25 };

let ctx: TestContext;
let token: string;
let available: number;
let before: Awaited<ReturnType<typeof snapshotAllTables>>;

beforeAll(async () => {
  ctx = await startTestApp();
  token = await adminToken(ctx);
  available = (await insertSlot(ctx.database, 30)).id;
  await insertSlot(ctx.database, 31, { status: 'booked', ...visitor, visitorContactNo: '0123456789' });
  await insertSlot(ctx.database, 32, { holdTokenHash: 'held', holdExpiresAt: new Date(Date.now() + 3_600_000) });
  before = await snapshotAllTables(ctx.database);
});
afterAll(() => stopTestApp(ctx));
afterEach(async () => {
  expect(await snapshotAllTables(ctx.database)).toEqual(before);
});

type Method = 'GET' | 'POST' | 'PUT';
async function expectRefused(method: Method, url: string, payload: unknown, headers: Record<string, string> = {}) {
  const res = await ctx.app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', ...headers },
    ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
  if (res.statusCode < 400 || res.statusCode >= 500) throw new Error(`${method} ${url} ${JSON.stringify(payload)} -> ${res.statusCode} ${res.body}`);
  const body = res.json();
  expect(body).toMatchObject({ success: false, data: null, message: expect.any(String), error: expect.any(String) });
  expect(body.message.length).toBeGreaterThan(0);
  return res.statusCode;
}

/** Any JSON value, or raw text that is often not JSON at all. */
const anyBody = fc.oneof(fc.jsonValue(), fc.string(), fc.constantFrom('{', 'null', '[]', '{"a":', '\u0000'));
const badId = fc.oneof(
  fc.string({ minLength: 1 }).filter((s) => !slotIdParamSchema.safeParse({ id: s }).success),
  fc.integer({ min: -1_000_000, max: 0 }).map(String),
  fc.double({ noNaN: false }).filter((n) => !Number.isInteger(n)).map(String),
  fc.constantFrom('99999999999', '1e3', '0x10', 'NaN', 'Infinity', '1.5', ' 1', '--1'),
);
const badToken = fc.oneof(fc.string(), fc.base64String(), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), fc.constant('A'.repeat(300)));
const idPath = (id: string) => encodeURIComponent(id) || '%20';
const fails = (schema: z.ZodType) => (v: unknown) => !schema.safeParse(v).success;

it('GET /public/list: malformed queries get a 400', async () => {
  // Only queries the schema refuses: fc.string() sometimes makes "1", a good limit (a seed did).
  const query = fc
    .record({
      limit: fc.oneof(fc.string(), fc.integer({ min: -5, max: 0 }).map(String), fc.integer({ min: 101, max: 1e9 }).map(String)),
      page: fc.option(fc.oneof(fc.string(), fc.constantFrom('0', '-1', '1.5'))),
    })
    .filter(({ limit, page }) => fails(publicListQuerySchema)({ limit, ...(page === null ? {} : { page }) }));
  await fc.assert(
    fc.asyncProperty(query, async ({ limit, page }) => {
      const qs = new URLSearchParams({ limit, ...(page === null ? {} : { page }) });
      await expectRefused('GET', `/public/list?${qs}`, undefined);
    }),
    RUNS,
  );
});

it('POST /auth/login: malformed bodies get a 4xx', async () => {
  await fc.assert(
    fc.asyncProperty(anyBody, async (body) => {
      await expectRefused('POST', '/auth/login', body);
    }),
    RUNS,
  );
});

it('staff routes: forged tokens always get a 401', async () => {
  const routes: [Method, string, unknown][] = [
    ['GET', '/user', undefined],
    ['POST', '/auth/logout', undefined],
    ['POST', '/auth/register', { email: 'x@example.com', password: 'abcdef' }],
    ['GET', '/slot/list', undefined],
    ['POST', '/slot/add', { date: '2031-01-06', startTime: '08:30', endTime: '09:00' }],
    ['PUT', `/slot/delete/${available}`, { slotId: available }],
    ['PUT', `/slot/${available}`, visitor],
  ];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...routes), badToken, async ([method, url, payload], forged) => {
      const status = await expectRefused(method, url, payload, { authorization: `Bearer ${forged}` });
      expect(status).toBe(401);
    }),
    RUNS,
  );
});

it('POST /auth/register: malformed bodies get a 400 and create nobody', async () => {
  await fc.assert(
    fc.asyncProperty(anyBody.filter(fails(registerBodySchema)), async (body) => {
      await expectRefused('POST', '/auth/register', body, auth(token));
    }),
    RUNS,
  );
});

it('POST /slot/add: malformed or refused dates and times create nothing', async () => {
  const dateLike = fc.oneof(
    fc.string(),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)).filter((d) => d < '2026-01-01'),
    fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 })).map(
      ([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
    ).filter((d) => !/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(d)),
  );
  const timeLike = fc.oneof(fc.string(), fc.constantFrom('24:00', '12:60', '00:00 AM', '13:00 PM', '8', '08:30:99', ''));
  const body = fc.oneof(
    anyBody.filter(fails(createSlotBodySchema)),
    fc.record({ date: dateLike, startTime: fc.constant('08:30'), endTime: fc.constant('09:00') }),
    fc.record({ date: fc.constant('2031-01-06'), startTime: timeLike, endTime: timeLike }),
  );
  await fc.assert(
    fc.asyncProperty(body, async (b) => {
      await expectRefused('POST', '/slot/add', b, auth(token));
    }),
    RUNS,
  );
});

it('PUT /slot/delete/{slotId}: malformed ids and bodies delete nothing', async () => {
  const input = fc.oneof(
    fc.record({ id: badId, body: anyBody }),
    fc.record({ id: fc.constant(String(available)), body: anyBody.filter(fails(deleteSlotBodySchema)) }),
  );
  await fc.assert(
    fc.asyncProperty(input, async ({ id, body }) => {
      await expectRefused('PUT', `/slot/delete/${idPath(id)}`, body, auth(token));
    }),
    RUNS,
  );
});

it('POST /slot/{id}/reserve: malformed ids and bodies hold nothing', async () => {
  const reserveBody = z.preprocess((v) => v ?? { minutes: HOLD_MINUTES }, reserveBodySchema);
  const input = fc.oneof(
    fc.record({ id: badId, body: anyBody }),
    fc.record({ id: fc.constant(String(available)), body: anyBody.filter(fails(reserveBody)).filter((b) => typeof b !== 'string') }),
  );
  await fc.assert(
    fc.asyncProperty(input, async ({ id, body }) => {
      await expectRefused('POST', `/slot/${idPath(id)}/reserve`, body);
    }),
    RUNS,
  );
});

it('POST /slot/{id}/release: malformed ids and wrong tokens release nothing', async () => {
  const input = fc.oneof(
    fc.record({ id: badId, body: anyBody }),
    fc.record({ id: fc.constantFrom(String(available), String(available + 2)), body: fc.oneof(anyBody, badToken.map((t) => ({ token: t }))) }),
  );
  await fc.assert(
    fc.asyncProperty(input, async ({ id, body }) => {
      await expectRefused('POST', `/slot/${idPath(id)}/release`, body);
    }),
    RUNS,
  );
});

it('PUT /slot/{id}: malformed input books nothing, staff or not; anonymous valid input is refused too', async () => {
  const input = fc.oneof(
    fc.record({ id: badId, body: anyBody, staff: fc.boolean() }),
    fc.record({ id: fc.constant(String(available)), body: anyBody.filter(fails(bookSlotBodySchema)), staff: fc.boolean() }),
    fc.record({
      id: fc.constant(String(available)),
      body: fc.record({ visitorName: fc.string({ minLength: 2 }).filter((s) => s.trim().length >= 2), visitorEmail: fc.emailAddress(), visitorContactNo: fc.stringMatching(/^\d{8,15}$/), selectedSchool: fc.constant('Seri Ilmu International'), childName: fc.constant('Adam Tan'), childYear: fc.constant('Year 7') }),
      staff: fc.constant(false),
    }),
  );
  await fc.assert(
    fc.asyncProperty(input, async ({ id, body, staff }) => {
      await expectRefused('PUT', `/slot/${idPath(id)}`, body, staff ? auth(token) : {});
    }),
    RUNS,
  );
});

it('ids that Number() would read as a row (" 1", "1.0", "+1", "01", "1e0", "0x…") are refused, with otherwise valid input', async () => {
  const lookalikes = [` ${available}`, `${available} `, `${available}.0`, `+${available}`, `0${available}`, `${available}e0`, `0x${available.toString(16)}`];
  const booking = {
    visitorName: 'Aisyah Rahman',
    visitorEmail: 'aisyah@example.com',
    visitorContactNo: '0123456789',
    selectedSchool: 'Seri Ilmu International',
    childName: 'Nur Iman',
    childYear: 'Year 7',
  };
  for (const id of lookalikes) {
    expect(await expectRefused('POST', `/slot/${idPath(id)}/reserve`, undefined)).toBe(400);
    expect(await expectRefused('POST', `/slot/${idPath(id)}/release`, { token: 'x'.repeat(43) })).toBe(400);
    expect(await expectRefused('PUT', `/slot/${idPath(id)}`, booking, auth(token))).toBe(400);
    expect(await expectRefused('PUT', `/slot/delete/${idPath(id)}`, { slotId: available }, auth(token))).toBe(400);
    expect(await expectRefused('PUT', `/slot/delete/${available}`, { slotId: id }, auth(token))).toBe(400);
  }
  const res = await ctx.app.inject({ method: 'POST', url: `/slot/${idPath(` ${available}`)}/reserve` });
  expect(res.json().message).toBe('id: Expected a whole number from 1');
});
