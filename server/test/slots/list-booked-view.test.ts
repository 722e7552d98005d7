// GET /slot/list?view=booked (issue 41): the Booked view paged on the server: a booking of several children is one row
// on one page, sorted by a visitor column, filtered by school, with the per-school counts; on PGlite and PostgreSQL.
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../src/base/db/connection';
import { slots } from '../../src/slots';
import { STAFF_OTHER_SCHOOL, type StaffSlot } from 'shared-api/contract';
import { auth, clearSlots, createThrowawayPostgres, insertSlot, snapshotSlots, startTestApp, staffToken, stopTestApp, type TestContext } from '../helpers';

jest.setTimeout(60_000);

const PRIMARY = 'Seri Ilmu Private Primary';
const SECONDARY = 'Seri Ilmu Private Secondary';
const INTERNATIONAL = 'Seri Ilmu International';

describe.each(['pglite', 'postgres'] as const)('the Booked view, paged on the server (%s)', (driver) => {
  let ctx: TestContext;
  let token: string;
  let drop: (() => Promise<void>) | undefined;
  const ids: Record<string, number> = {};

  const booked = (reference: string, visitorName: string, childName: string, selectedSchool: string, contact = '+60120000000') => ({
    status: 'booked' as const,
    bookingReference: reference,
    visitorName,
    visitorEmail: `${visitorName.split(' ')[0].toLowerCase()}@example.com`,
    visitorContactNo: contact,
    childName,
    selectedSchool,
  });

  beforeAll(async () => {
    if (driver === 'postgres') {
      const pgdb = await createThrowawayPostgres('booked_view_test');
      drop = pgdb.drop;
      ctx = await startTestApp({}, await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 2 }));
    } else {
      ctx = await startTestApp();
    }
    token = await staffToken(ctx);
    await clearSlots(ctx.database);
    // Days from now, each its own time unless said; A is one booking of two children at one time.
    ids.D = (await insertSlot(ctx.database, -24, booked('BK-D', 'Ben Lee', 'Dina', PRIMARY))).id;
    const a1 = await insertSlot(ctx.database, 24, { ...booked('BK-A', 'Mei Ling', 'Adam', PRIMARY), seat: 1 });
    ids.A1 = a1.id;
    ids.A2 = (await insertSlot(ctx.database, 24, { ...booked('BK-A', 'Mei Ling', 'Zara', INTERNATIONAL), seat: 2, startAt: a1.startAt, endAt: a1.endAt })).id;
    ids.B = (await insertSlot(ctx.database, 48, booked('BK-B', 'Aisyah Rahman', 'Bella', SECONDARY, '+60198887777'))).id;
    ids.C = (await insertSlot(ctx.database, 72, booked('BK-C', 'Zul Hakim', 'Chong', 'Old Town School'))).id;
    ids.free = (await insertSlot(ctx.database, 96)).id;
    // Two bookings sharing one time: two rows.
    const e = await insertSlot(ctx.database, 120, { ...booked('BK-E', 'Carol Tan', 'Eve', SECONDARY), seat: 1 });
    ids.E = e.id;
    ids.F = (await insertSlot(ctx.database, 120, { ...booked('BK-F', 'Dan Wong', 'Finn', SECONDARY), seat: 2, startAt: e.startAt, endAt: e.endAt })).id;
  });
  afterAll(async () => {
    await stopTestApp(ctx);
    await drop?.();
  });

  const list = async (query: string) => {
    const res = await ctx.app.inject({ method: 'GET', url: `/slot/list?view=booked&${query}`, headers: auth(token) });
    return { status: res.statusCode, body: res.json() };
  };
  const rowsOf = async (query: string) => ((await list(query)).body.data.timeSlots.rows as StaffSlot[]).map((row) => row.id);
  const named = (...names: string[]) => names.map((name) => ids[name]);

  it('pages bookings, not seats: a booking of two children comes whole on one page; the table counts rows, count counts seats', async () => {
    const first = await list('limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.timeSlots.rows.map((row: StaffSlot) => row.id)).toEqual(named('D', 'A1', 'A2'));
    expect(first.body.data.timeSlots.count).toBe(7);
    expect(first.body.data.pagination).toEqual({ total: 6, page: 1, limit: 2, totalPages: 3 });
    expect(await rowsOf('limit=2&page=2')).toEqual(named('B', 'C'));
    expect(await rowsOf('limit=2&page=3')).toEqual(named('E', 'F'));
    const beyond = await list('limit=2&page=4');
    expect(beyond.body.data.timeSlots).toEqual({ rows: [], count: 7 });
    expect(beyond.body.data.pagination.total).toBe(6);
  });

  it('sorts by the parent, either way; a booking keeps its children in seat order', async () => {
    expect(await rowsOf('sort=visitor')).toEqual(named('B', 'D', 'E', 'F', 'A1', 'A2', 'C'));
    expect(await rowsOf('sort=visitor&direction=descending')).toEqual(named('C', 'A1', 'A2', 'F', 'E', 'D', 'B'));
  });

  it('sorts by the first child, the school and the phone', async () => {
    expect(await rowsOf('sort=child')).toEqual(named('A1', 'A2', 'B', 'C', 'D', 'E', 'F'));
    // Old Town School < Primary < Secondary (B, E, F by start); A sorts by its first child's school.
    expect(await rowsOf('sort=school')).toEqual(named('C', 'D', 'A1', 'A2', 'B', 'E', 'F'));
    expect((await rowsOf('sort=phone&direction=descending'))[0]).toBe(ids.B);
  });

  it('finds a phone number stored with its own spaces and hyphens by its digits, and sorts phones by their digits', async () => {
    const typed = await insertSlot(ctx.database, 200, booked('BK-G', 'Gita Devi', 'Gopal', PRIMARY, '019-888 7776'));
    try {
      expect(await rowsOf('q=0198887776')).toEqual([typed.id]);
      // 019-888 7776 sorts by 0198887776, before +60120000000's 60120000000 and +60198887777's 60198887777.
      expect((await rowsOf('sort=phone'))[0]).toBe(typed.id);
    } finally {
      await ctx.database.db.delete(slots).where(eq(slots.id, typed.id));
    }
  });

  it('a search finding one child brings the whole booking', async () => {
    const { body } = await list('q=zara');
    expect(body.data.timeSlots.rows.map((row: StaffSlot) => row.id)).toEqual(named('A1', 'A2'));
    expect(body.data.timeSlots.count).toBe(2);
    expect(body.data.pagination.total).toBe(1);
    const none = (await list('q=nobody')).body.data;
    expect(none.timeSlots).toEqual({ rows: [], count: 0 });
    expect(none.pagination.total).toBe(0);
    expect(none.schools.map((school: { count: number }) => school.count)).toEqual([0, 0, 0, 0]);
  });

  it('filters by school (a booking with a child there), and counts seats per school before that filter', async () => {
    const all = await list('');
    expect(all.body.data.schools).toEqual([
      { school: PRIMARY, count: 2 },
      { school: SECONDARY, count: 3 },
      { school: INTERNATIONAL, count: 1 },
      { school: null, count: 1 },
    ]);
    const international = await list(`school=${encodeURIComponent(INTERNATIONAL)}`);
    expect(international.body.data.timeSlots.rows.map((row: StaffSlot) => row.id)).toEqual(named('A1', 'A2'));
    expect(international.body.data.schools).toEqual(all.body.data.schools);
    expect(await rowsOf(`school=${STAFF_OTHER_SCHOOL}`)).toEqual(named('C'));
    // The counts follow the search.
    expect((await list('q=mei')).body.data.schools).toEqual([
      { school: PRIMARY, count: 1 },
      { school: SECONDARY, count: 0 },
      { school: INTERNATIONAL, count: 1 },
      { school: null, count: 0 },
    ]);
  });

  it('upcoming pages latest first when asked, and carries no school counts', async () => {
    const { body } = await ctx.app.inject({ method: 'GET', url: '/slot/list?view=upcoming&direction=descending&limit=2', headers: auth(token) }).then((res) => ({ body: res.json() }));
    expect(body.data.timeSlots.rows.map((row: StaffSlot) => row.id)).toEqual(named('E', 'F'));
    expect(body.data.schools).toBeUndefined();
  });

  it.each([['school=Nowhere%20School'], ['sort=email'], ['direction=up']])('refuses %s with 400 and changes nothing', async (query) => {
    const before = await snapshotSlots(ctx.database);
    const { status, body } = await list(query);
    expect(status).toBe(400);
    expect(body.success).toBe(false);
    expect(await snapshotSlots(ctx.database)).toBe(before);
  });
});
