jest.setTimeout(60_000);
import { sql } from 'drizzle-orm';
import { brand } from 'shared-api/contract';
import { openDatabase, type DatabaseHandle } from '../src/base/db/connection';
import { createPublicListCache } from '../src/slots/public-list-cache';
import { currentConsent, auth, createThrowawayPostgres, freshPglite, insertSlot, staffToken, startTestApp, stopTestApp, visitor, type TestContext } from './helpers';

// The public list is cached for a second: every change to a slot must still show on the very next request.
type Target = { name: string; open: () => Promise<{ database: DatabaseHandle; drop?: () => Promise<void> }> };
const targets: Target[] = [
  { name: 'PGlite', open: async () => ({ database: await freshPglite() }) },
  {
    name: 'PostgreSQL',
    open: async () => {
      const throwaway = await createThrowawayPostgres('public_list_cache');
      return { database: await openDatabase({ driver: 'postgres', url: throwaway.url }), drop: throwaway.drop };
    },
  },
];

describe.each(targets)('public list cache on $name', ({ open }) => {
  let ctx: TestContext;
  let drop: (() => Promise<void>) | undefined;
  let token: string;
  beforeAll(async () => {
    const opened = await open();
    drop = opened.drop;
    ctx = await startTestApp({}, opened.database);
    token = await staffToken(ctx);
  });
  afterAll(async () => {
    await stopTestApp(ctx);
    await drop?.();
  });

  const listedIds = async (): Promise<number[]> => {
    const res = await ctx.app.inject('/public/list?limit=100&page=1&format=legacy');
    expect(res.statusCode).toBe(200);
    return (res.json().data.slots as { id: number }[]).map((s) => s.id);
  };
  // Two reads in a row: the second is served from the cache, so both must agree with the database.
  const listedTwice = async () => {
    const first = await listedIds();
    expect(await listedIds()).toEqual(first);
    return first;
  };

  it('shows a hold, a release, a booking, a new and a deleted slot on the next request', async () => {
    const a = await insertSlot(ctx.database, 48);
    const b = await insertSlot(ctx.database, 49);
    expect(await listedTwice()).toEqual(expect.arrayContaining([a.id, b.id]));

    const held = await ctx.app.inject({ method: 'POST', url: `/slot/${a.id}/reserve`, payload: {} });
    expect(held.statusCode).toBe(200);
    expect(await listedTwice()).not.toContain(a.id);

    await ctx.app.inject({ method: 'POST', url: `/slot/${a.id}/release`, payload: { token: held.json().data.token } });
    expect(await listedTwice()).toContain(a.id);

    const booked = await ctx.app.inject({ method: 'PUT', url: `/slot/${b.id}`, headers: auth(token), payload: { ...visitor, id: b.id } });
    expect(booked.statusCode).toBe(200);
    expect(await listedTwice()).not.toContain(b.id);

    const day = new Date(Date.now() + 5 * 86_400_000);
    while ([0, 6].includes(day.getUTCDay())) day.setUTCDate(day.getUTCDate() + 1);
    const date = day.toISOString().slice(0, 10);
    const added = await ctx.app.inject({ method: 'POST', url: '/slot/add', headers: auth(token), payload: { date, startTime: '16:00', endTime: '16:30' } });
    expect(added.statusCode).toBe(201);
    const addedId = added.json().data.slot.id as number;
    expect(await listedTwice()).toContain(addedId);

    const deleted = await ctx.app.inject({ method: 'PUT', url: `/slot/delete/${addedId}`, headers: auth(token), payload: { slotId: addedId, deletedAt: new Date().toISOString() } });
    expect(deleted.statusCode).toBe(200);
    expect(await listedTwice()).not.toContain(addedId);
  });

  it('shows the hold a payment takes (its own SQL) and a write by another process (raw SQL) on the next request', async () => {
    const slot = await insertSlot(ctx.database, 50);
    expect(await listedTwice()).toContain(slot.id);
    const school = brand.schools[0];
    const start = new Date(slot.startAt);
    const initiated = await ctx.app.inject({
      method: 'POST',
      url: '/api/payment/initiate',
      payload: {
        ...visitor,
        selectedSchool: school.name,
        slotId: slot.id,
        fee: school.feeSen,
        slotDate: new Date(start.getTime() + 8 * 3_600_000).toISOString().slice(0, 10),
        slotStartTime: new Date(start.getTime() + 8 * 3_600_000).toISOString().slice(11, 16),
        consent: currentConsent(),
      },
    });
    expect(initiated.statusCode).toBe(200);
    expect(await listedTwice()).not.toContain(slot.id);

    const other = await insertSlot(ctx.database, 51);
    expect(await listedTwice()).toContain(other.id);
    await ctx.database.db.execute(sql`UPDATE slots SET deleted_at = now() WHERE id = ${other.id}`);
    expect(await listedTwice()).not.toContain(other.id);
  });

  it('requests arriving after a change never get the answer from before it, even while earlier reads are running', async () => {
    const slot = await insertSlot(ctx.database, 52);
    expect(await listedIds()).toContain(slot.id);
    const earlier = Array.from({ length: 20 }, () => listedIds());
    // Another parent's address: the previous test's payment already holds this small timetable's one free hold here.
    const held = await ctx.app.inject({ method: 'POST', url: `/slot/${slot.id}/reserve`, payload: {}, remoteAddress: '198.51.100.2' });
    expect(held.statusCode).toBe(200);
    const later = await Promise.all(Array.from({ length: 20 }, () => listedIds()));
    for (const ids of later) expect(ids).not.toContain(slot.id);
    await Promise.all(earlier);
  });

  it('drops an answer after its time to live even when no slot row changed (a hold running out)', async () => {
    // The cache's clock, held still and moved by hand.
    let now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const cache = createPublicListCache(ctx.database.db, 1000);
      let builds = 0;
      const build = async () => String(++builds);
      expect(await cache.get('k', build)).toBe('1');
      now += 999;
      expect(await cache.get('k', build)).toBe('1');
      now += 1;
      expect(await cache.get('k', build)).toBe('2');
    } finally {
      clock.mockRestore();
    }
  });
});
