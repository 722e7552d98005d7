// GET /slot/list paged (issue 41): a page of a view, its total and the stat counts; without the new params, the spec's list.
import { sql } from 'drizzle-orm';
import { STAFF_PAGE_MAX, STAFF_PAGE_SIZE, todayInMY, type StaffSlot } from 'shared-api/contract';
import { auth, clearSlots, insertSlot, snapshotSlots, startTestApp, staffToken, stopTestApp, type TestContext } from '../helpers';

jest.setTimeout(30_000);

let ctx: TestContext;
let token: string;
// Days from now: past ones negative. Every start is a different hour, so none share a time unless a test says so.
const upcomingDays = [1, 2, 3, 4, 5];
const pastDays = [-1, -2, -3];
const bookedAt = new Map<number, { visitorName: string; visitorEmail: string; visitorContactNo: string; bookingReference: string; childName: string; selectedSchool?: string }>([
  [2, { visitorName: 'Aisyah Rahman', visitorEmail: 'aisyah@example.com', visitorContactNo: '+60123456789', bookingReference: 'BK-UP-0002', childName: 'Nur Iman' }],
  [4, { visitorName: 'Tan Wei Ming', visitorEmail: 'wei.ming@example.com', visitorContactNo: '+60198887777', bookingReference: 'BK-UP-0004', childName: 'Tan Jia Hui', selectedSchool: 'Seri Ilmu Primary' }],
  [-2, { visitorName: 'Priya Nair', visitorEmail: 'priya@example.com', visitorContactNo: '+60161112222', bookingReference: 'BK-PA-0002', childName: 'Arjun 100%' }],
]);
const ids = new Map<number, number>();

beforeAll(async () => {
  ctx = await startTestApp();
  token = await staffToken(ctx);
  await clearSlots(ctx.database);
  for (const day of [...upcomingDays, ...pastDays]) {
    const visitor = bookedAt.get(day);
    const row = await insertSlot(ctx.database, day * 24, visitor ? { status: 'booked', ...visitor } : {});
    ids.set(day, row.id);
  }
});
afterAll(() => stopTestApp(ctx));

const list = async (query: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/slot/list${query}`, headers: auth(token) });
  return { status: res.statusCode, body: res.json() };
};
const idsOf = (rows: StaffSlot[]) => rows.map((row) => row.id);
const day = (...days: number[]) => days.map((d) => ids.get(d));

describe('without view, page, limit or q: the spec’s list, as before', () => {
  it('answers every live slot, past ones too, by start, with no pagination or stats', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(idsOf(body.data.timeSlots.rows)).toEqual(day(-3, -2, -1, 1, 2, 3, 4, 5));
    expect(body.data.timeSlots.count).toBe(8);
    expect(Object.keys(body.data)).toEqual(['timeSlots']);
  });

  it('keeps the isBooked filter', async () => {
    expect(idsOf((await list('?isBooked=true')).body.data.timeSlots.rows)).toEqual(day(-2, 2, 4));
    expect(idsOf((await list('?isBooked=false')).body.data.timeSlots.rows)).toEqual(day(-3, -1, 1, 3, 5));
  });
});

describe('paged', () => {
  it('upcoming: soonest first, a page at a time, count and pages of every match', async () => {
    const first = await list('?view=upcoming&limit=2');
    expect(first.status).toBe(200);
    expect(idsOf(first.body.data.timeSlots.rows)).toEqual(day(1, 2));
    expect(first.body.data.timeSlots.count).toBe(5);
    expect(first.body.data.pagination).toEqual({ total: 5, page: 1, limit: 2, totalPages: 3 });
    expect(idsOf((await list('?view=upcoming&limit=2&page=2')).body.data.timeSlots.rows)).toEqual(day(3, 4));
    expect(idsOf((await list('?view=upcoming&limit=2&page=3')).body.data.timeSlots.rows)).toEqual(day(5));
    expect((await list('?view=upcoming&limit=2&page=4')).body.data.timeSlots).toEqual({ rows: [], count: 5 });
  });

  it('any new param pages, upcoming by default, STAFF_PAGE_SIZE rows a page', async () => {
    const { body } = await list('?page=1');
    expect(idsOf(body.data.timeSlots.rows)).toEqual(day(1, 2, 3, 4, 5));
    expect(body.data.pagination).toEqual({ total: 5, page: 1, limit: STAFF_PAGE_SIZE, totalPages: 1 });
  });

  it('past: newest first; booked: past bookings too, by start', async () => {
    expect(idsOf((await list('?view=past')).body.data.timeSlots.rows)).toEqual(day(-1, -2, -3));
    expect(idsOf((await list('?view=booked')).body.data.timeSlots.rows)).toEqual(day(-2, 2, 4));
  });

  it('keeps the isBooked filter within a view', async () => {
    expect(idsOf((await list('?view=upcoming&isBooked=false')).body.data.timeSlots.rows)).toEqual(day(1, 3, 5));
    expect((await list('?view=upcoming&isBooked=true')).body.data.timeSlots.count).toBe(2);
  });

  it.each([
    ['name, any case', 'aISYAH', [2]],
    ['email', 'wei.ming@', [4]],
    ['phone', '888777', [4]],
    ['reference', 'bk-pa', [-2]],
    ['child', 'jia hui', [4]],
    ['school', 'seri ilmu primary', [4]],
    ['phone typed with spaces and hyphens', '019-888 7777', [4]],
    ['a % taken literally', '100%', [-2]],
    ['a _ taken literally', 'BK_', []],
  ])('search finds by %s', async (_what, q, expected) => {
    const { status, body } = await list(`?view=booked&q=${encodeURIComponent(q)}`);
    expect(status).toBe(200);
    expect(idsOf(body.data.timeSlots.rows)).toEqual(day(...expected));
    expect(body.data.timeSlots.count).toBe(expected.length);
  });

  it('search works in the past view too, and a blank search finds all', async () => {
    expect(idsOf((await list('?view=past&q=priya')).body.data.timeSlots.rows)).toEqual(day(-2));
    expect((await list('?view=past&q=%20%20')).body.data.timeSlots.count).toBe(3);
  });

  it('counts the stat cards in SQL: ahead, booked (past too), ahead and free, ahead today in GMT+8', async () => {
    const soon = await insertSlot(ctx.database, 0.1);
    try {
      const soonRow = (await list('')).body.data.timeSlots.rows.find((row: StaffSlot) => row.id === soon.id) as StaffSlot;
      // `date` is in GMT+8; six minutes ahead is today unless the test runs in the day's last minutes; the other slots are days away.
      const today = soonRow.date.slice(0, 10) === todayInMY() ? 1 : 0;
      expect((await list('?view=past')).body.data.stats).toEqual({ total: 6, booked: 3, available: 4, today });
    } finally {
      await ctx.database.db.execute(sql`DELETE FROM slots WHERE id = ${soon.id}`);
    }
  });

  it('a time of several seats carries its seats on the page', async () => {
    const first = await insertSlot(ctx.database, 24 * 30);
    const second = await insertSlot(ctx.database, 24 * 30, { startAt: first.startAt, endAt: first.endAt, seat: 2, status: 'booked', visitorName: 'Seat Two' });
    try {
      const rows = (await list('?view=upcoming&q=seat%20two')).body.data.timeSlots.rows as StaffSlot[];
      expect(rows).toEqual([expect.objectContaining({ id: second.id, seat: 2, seats: 2, seatsTaken: 1 })]);
    } finally {
      await ctx.database.db.execute(sql`DELETE FROM slots WHERE id IN (${first.id}, ${second.id})`);
    }
  });

  it.each([
    ['limit=0'],
    [`limit=${STAFF_PAGE_MAX + 1}`],
    ['page=0'],
    ['page=abc'],
    ['page=1.5'],
    ['view=soon'],
    [`q=${'x'.repeat(101)}`],
  ])('refuses %s with 400 and changes nothing', async (query) => {
    const before = await snapshotSlots(ctx.database);
    const { status, body } = await list(`?${query}`);
    expect(status).toBe(400);
    expect(body.success).toBe(false);
    expect(await snapshotSlots(ctx.database)).toBe(before);
  });
});
