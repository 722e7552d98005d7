jest.setTimeout(30_000);
import { sql } from 'drizzle-orm';
import { ErrorCode } from 'shared-api/contract';
import { slots } from '../src/slots/tables';
import { clearSlots, insertSlot, queryRows, startTestApp, staffToken, stopTestApp, auth, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => stopTestApp(ctx));
beforeEach(() => clearSlots(ctx.database));

describe('GET /health', () => {
  it('reports a healthy database with its driver and latency', async () => {
    const res = await ctx.app.inject('/health');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ status: 'healthy', database: 'database_healthy', databaseDetails: { driver: 'pglite' } });
    expect(typeof body.data.databaseDetails.latencyMs).toBe('number');
  });

  it("carries the spec's errorType, null: an API that answers has no issue (the browser names a 404, 5xx or 401 itself)", async () => {
    const res = await ctx.app.inject('/health');
    expect(res.json().data.errorType).toBeNull();
  });
});

describe('GET /public/list', () => {
  it('lists only upcoming bookable slots, in order, with no visitor data at all', async () => {
    const later = await insertSlot(ctx.database, 48);
    const soon = await insertSlot(ctx.database, 3);
    await insertSlot(ctx.database, 0.5); // inside the 1-hour lead time
    await insertSlot(ctx.database, -5); // past
    await insertSlot(ctx.database, 24, {
      status: 'booked',
      visitorName: 'Secret Parent',
      visitorEmail: 'secret@example.com',
      visitorContactNo: '0123456789',
      selectedSchool: 'Seri Ilmu International',
    });
    await insertSlot(ctx.database, 25, { deletedAt: new Date() });
    await insertSlot(ctx.database, 26, { holdTokenHash: 'x', holdExpiresAt: new Date(Date.now() + 600_000) });
    const expiredHold = await insertSlot(ctx.database, 27, { holdTokenHash: 'y', holdExpiresAt: new Date(Date.now() - 60_000) });

    const res = await ctx.app.inject('/public/list?limit=100&page=1&format=legacy&_t=123');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.slots.map((s: { id: number }) => s.id)).toEqual([soon.id, expiredHold.id, later.id]);
    expect(body.data.pagination).toEqual({ total: 3, page: 1, limit: 100, totalPages: 1 });
    expect(body.data.filters).toMatchObject({ leadHours: 1, timezone: 'Asia/Singapore' });
    expect(res.body).not.toMatch(/Secret|secret@|visitor|0123456789/);
    expect(body.data.slots[0]).toEqual({
      id: soon.id,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      startTime: expect.stringMatching(/^\d{2}:\d{2}$/),
      endTime: expect.stringMatching(/^\d{2}:\d{2}$/),
      isBooked: false,
      status: 'available',
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('shows times in GMT+8', async () => {
    const start = new Date('2030-01-07T00:30:00Z'); // 08:30 in Kuala Lumpur, a Monday
    await ctx.database.db.insert(slots).values({ startAt: start, endAt: new Date(start.getTime() + 1_800_000) });
    const body = (await ctx.app.inject('/public/list')).json();
    expect(body.data.slots[0]).toMatchObject({ date: '2030-01-07', startTime: '08:30', endTime: '09:00' });
  });

  it('reads the total with limit 1 and pages through', async () => {
    for (const h of [10, 20, 30]) await insertSlot(ctx.database, h);
    const first = (await ctx.app.inject('/public/list?limit=1')).json();
    expect(first.data.pagination).toEqual({ total: 3, page: 1, limit: 1, totalPages: 3 });
    const third = (await ctx.app.inject('/public/list?limit=1&page=3')).json();
    expect(third.data.slots).toHaveLength(1);
    const beyond = (await ctx.app.inject('/public/list?limit=1&page=4')).json();
    expect(beyond.data.slots).toEqual([]);
  });

  it('answers the flat and grouped shapes', async () => {
    const a = await insertSlot(ctx.database, 30);
    const flat = (await ctx.app.inject('/public/list?format=flat')).json();
    expect(flat.data).toEqual([expect.objectContaining({ id: a.id, status: 'available' })]);
    const grouped = (await ctx.app.inject('/public/list?format=grouped')).json();
    const weeks = Object.keys(grouped.data);
    expect(weeks).toHaveLength(1);
    const dates = Object.keys(grouped.data[weeks[0]]);
    expect(grouped.data[weeks[0]][dates[0]][0]).toMatchObject({ id: a.id, week: Number(weeks[0]) });
  });

  it.each([
    ['limit=0', /^limit: /],
    ['limit=101', /^limit: /],
    ['limit=abc', /^limit: /],
    ['page=0', /^page: /],
    // Lookalikes Number() would read as 2, 20 and 16: a query is plain digits too.
    ['page=%202', /^page: Expected a whole number from 1$/],
    ['limit=2e1', /^limit: Expected a whole number from 1$/],
    ['page=0x10', /^page: Expected a whole number from 1$/],
    ['format=xml', /^format: /],
  ])('refuses %s with a 400 naming the field', async (query, message) => {
    const res = await ctx.app.inject(`/public/list?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, data: null, error: ErrorCode.VALIDATION_ERROR, message: expect.stringMatching(message) });
  });
});

describe('CORS', () => {
  it('allows the configured bundle origins only', async () => {
    const allowed = await ctx.app.inject({ url: '/public/list', headers: { origin: 'http://localhost:3001' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:3001');
    const local = await ctx.app.inject({ url: '/public/list', headers: { origin: 'http://127.0.0.1:3002' } });
    expect(local.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3002');
    const other = await ctx.app.inject({ url: '/public/list', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/slot/list',
      headers: { origin: 'http://localhost:3002', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization/i);
  });

  it('lets those origins send credentials (the login reads its known-device cookie), no other origin', async () => {
    const allowed = await ctx.app.inject({ method: 'OPTIONS', url: '/auth/login', headers: { origin: 'http://localhost:3002', 'access-control-request-method': 'POST' } });
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const other = await ctx.app.inject({ method: 'OPTIONS', url: '/auth/login', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('OpenAPI and unknown routes', () => {
  it('lists every route on /docs', async () => {
    const res = await ctx.app.inject('/docs/json');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(
      expect.arrayContaining([
        '/auth/login',
        '/auth/logout',
        '/auth/register',
        '/health',
        '/public/list',
        '/slot/add',
        '/slot/delete/{slotId}',
        '/slot/list',
        '/slot/{id}',
        '/slot/{id}/release',
        '/slot/{id}/reserve',
        '/user',
      ]),
    );
    expect((await ctx.app.inject('/docs')).statusCode).toBeLessThan(400);
  });

  it('answers an unknown route with the envelope', async () => {
    const res = await ctx.app.inject('/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, data: null, error: ErrorCode.NOT_FOUND });
  });
});

describe('database down', () => {
  it('health says unreachable and slot routes answer 503 DATABASE_UNAVAILABLE, never mock data', async () => {
    const down = await startTestApp();
    const token = await staffToken(down);
    await insertSlot(down.database, 30);
    await down.database.close();
    try {
      const health = (await down.app.inject('/health')).json();
      // The API answers: no errorType, the database's state says what is wrong.
      expect(health.data).toMatchObject({ errorType: null, database: 'database_unreachable', databaseDetails: { driver: 'pglite', latencyMs: null } });
      for (const req of [
        { method: 'GET' as const, url: '/public/list' },
        { method: 'GET' as const, url: '/slot/list', headers: auth(token) },
        { method: 'POST' as const, url: '/slot/1/reserve', payload: {} },
      ]) {
        const res = await down.app.inject(req);
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({
          success: false,
          data: null,
          error: ErrorCode.DATABASE_UNAVAILABLE,
          message: expect.stringMatching(/cannot reach its database/),
        });
      }
    } finally {
      await down.app.close();
    }
  });
});

it('the test database is really empty between tests', async () => {
  const [{ n }] = await queryRows<{ n: number }>(ctx.database, sql`select count(*)::int as n from slots`);
  expect(n).toBe(0);
});
