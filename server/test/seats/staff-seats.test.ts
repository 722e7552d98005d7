// Issue 37, the staff side: add-many creates each planned time as a row per seat, all or none; the staff list tells
// each row of a time with more than one seat which seat it is and how many of its time's seats are taken.
import { sql } from 'drizzle-orm';
import { ErrorCode, SLOT_MAX_SEATS, SEATS_MESSAGE, SlotPlanMessage, TIMEZONE, todayInMY } from 'shared-api/contract';
import { dayjs } from 'shared-api/zoned-dayjs';
import { slots } from '../../src/slots/tables';
import { auth, clearSlots, queryRows, snapshotSlots, startTestApp, staffToken, stopTestApp, visitor, type TestContext } from '../helpers';

jest.setTimeout(30_000);

let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await startTestApp();
  token = await staffToken(ctx);
});
afterAll(() => stopTestApp(ctx));
beforeEach(() => clearSlots(ctx.database));

/** A Monday at least 2 days ahead (GMT+8), as YYYY-MM-DD. */
function nextMonday(): string {
  let d = dayjs.tz(todayInMY(), 'YYYY-MM-DD', TIMEZONE).add(2, 'day');
  while (d.day() !== 1) d = d.add(1, 'day');
  return d.format('YYYY-MM-DD');
}
const plus = (day: string, n: number) => dayjs.tz(day, 'YYYY-MM-DD', TIMEZONE).add(n, 'day').format('YYYY-MM-DD');

const post = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url, payload, headers: auth(token) });
type Listed = { id: number; startTime: string; status: string; seat?: number; seats?: number; seatsTaken?: number };
const staffList = async (query = '') => (await ctx.app.inject({ url: `/slot/list${query}`, headers: auth(token) })).json().data.timeSlots.rows as Listed[];
const book = (id: number) => ctx.app.inject({ method: 'PUT', url: `/slot/${id}`, payload: visitor, headers: auth(token) });

describe('add-many with seats', () => {
  it('previews the times and their seats, then creates every time as that many seats, audited with its seats', async () => {
    const monday = nextMonday();
    const body = { fromDate: monday, toDate: plus(monday, 1), startTimes: ['09:00', '10:00'], seats: 3 };
    const shown = await post('/slot/add-many/preview', body);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data).toMatchObject({ seats: 3, seatsToCreate: 12, refused: [] });
    expect(shown.json().data.toCreate).toHaveLength(4);
    expect(shown.json().message).toBe('4 slot(s) would be created (12 seats, 3 children at a time), 0 refused');
    expect(await ctx.database.db.select().from(slots)).toEqual([]);

    const res = await post('/slot/add-many', body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: SlotPlanMessage.createdSeats(4, 3), data: { count: 12 } });
    expect(res.json().data.created.slice(0, 3)).toEqual([
      expect.objectContaining({ startTime: '09:00', seat: 1, seats: 3, seatsTaken: 0 }),
      expect.objectContaining({ startTime: '09:00', seat: 2, seats: 3, seatsTaken: 0 }),
      expect.objectContaining({ startTime: '09:00', seat: 3, seats: 3, seatsTaken: 0 }),
    ]);
    const rows = await queryRows<{ start: string; seats: string[] }>(
      ctx.database,
      sql`SELECT to_char(start_at AT TIME ZONE 'Asia/Singapore', 'YYYY-MM-DD HH24:MI') AS start, array_agg(seat ORDER BY seat)::text[] AS seats
          FROM slots GROUP BY start_at ORDER BY start_at`,
    );
    expect(rows).toEqual(
      [`${monday} 09:00`, `${monday} 10:00`, `${plus(monday, 1)} 09:00`, `${plus(monday, 1)} 10:00`].map((start) => ({ start, seats: ['1', '2', '3'] })),
    );
    const [audit] = await queryRows<{ detail: { count: number; seats: number; slots: unknown[] } }>(
      ctx.database,
      sql`SELECT detail FROM audit_log WHERE action = 'slot_created' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.detail).toMatchObject({ count: 4, seats: 3 });
    expect(audit.detail.slots).toHaveLength(12);
  });

  it('refuses a time already there whatever the seats, and creates none of the others', async () => {
    const monday = nextMonday();
    await post('/slot/add', { date: monday, startTime: '10:00', endTime: '10:30' });
    const before = await snapshotSlots(ctx.database);
    const res = await post('/slot/add-many', { fromDate: monday, toDate: plus(monday, 1), startTimes: ['09:00', '10:00'], seats: 2 });
    expect(res.statusCode).toBe(409);
    expect(res.json().data.refused).toEqual([expect.objectContaining({ date: monday, startTime: '10:00', reason: 'overlapsExisting' })]);
    expect(await snapshotSlots(ctx.database)).toBe(before);
  });

  it.each([0, SLOT_MAX_SEATS + 1, 2.5, '2', null])('refuses seats %p with a clear 400 and creates nothing', async (seats) => {
    const body = { fromDate: nextMonday(), toDate: nextMonday(), startTimes: ['09:00'], seats };
    for (const url of ['/slot/add-many', '/slot/add-many/preview']) {
      const res = await post(url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: ErrorCode.VALIDATION_ERROR, message: expect.stringContaining(SEATS_MESSAGE) });
    }
    expect(await ctx.database.db.select().from(slots)).toEqual([]);
  });

  it('one seat, said or left out, is the plan as before: no seat fields anywhere', async () => {
    const monday = nextMonday();
    const shown = (await post('/slot/add-many/preview', { fromDate: monday, toDate: monday, startTimes: ['09:00'], seats: 1 })).json();
    expect(Object.keys(shown.data).sort()).toEqual(['holidays', 'refused', 'toCreate']);
    expect(shown.message).toBe('1 slot(s) would be created, 0 refused');
    const res = await post('/slot/add-many', { fromDate: monday, toDate: monday, startTimes: ['09:00'], seats: 1 });
    expect(res.json()).toMatchObject({ message: SlotPlanMessage.created(1), data: { count: 1 } });
    expect(res.json().data.created[0]).not.toHaveProperty('seat');
    expect(await ctx.database.db.select({ seat: slots.seat }).from(slots)).toEqual([{ seat: 1 }]);
  });
});

describe('the staff list of a time with seats', () => {
  it("gives each of its rows its seat, the time's seats and the seats taken, whatever the filter", async () => {
    const monday = nextMonday();
    await post('/slot/add', { date: monday, startTime: '09:00', endTime: '09:30', seats: 3 });
    await post('/slot/add', { date: monday, startTime: '11:00', endTime: '11:30' });
    const seats = (await staffList()).filter((row) => row.startTime === '09:00');
    const booked = await book(seats[1].id);
    expect(booked.statusCode).toBe(200);

    const all = await staffList();
    expect(all.map(({ startTime, seat, seats: of, seatsTaken }) => ({ startTime, seat, seats: of, seatsTaken }))).toEqual([
      { startTime: '09:00', seat: 1, seats: 3, seatsTaken: 1 },
      { startTime: '09:00', seat: 2, seats: 3, seatsTaken: 1 },
      { startTime: '09:00', seat: 3, seats: 3, seatsTaken: 1 },
      { startTime: '11:00', seat: undefined, seats: undefined, seatsTaken: undefined },
    ]);
    expect(all.find((row) => row.status === 'booked')).toMatchObject({ id: booked.json().data.slot.id, seats: 3, seatsTaken: 1 });
    // The booked filter shows one row, still counted against its whole time.
    expect(await staffList('?isBooked=true')).toEqual([expect.objectContaining({ startTime: '09:00', seats: 3, seatsTaken: 1 })]);
    expect((await staffList('?isBooked=false')).filter((row) => row.startTime === '09:00')).toHaveLength(2);
  });

  it('keeps the spec shape for a one-seat slot, and for a time left with one live seat', async () => {
    const monday = nextMonday();
    await post('/slot/add', { date: monday, startTime: '09:00', endTime: '09:30', seats: 2 });
    const [first, second] = await staffList();
    expect(second).toMatchObject({ seat: 2, seats: 2, seatsTaken: 0 });
    const deleted = await ctx.app.inject({ method: 'PUT', url: `/slot/delete/${second.id}`, payload: { slotId: second.id }, headers: auth(token) });
    expect(deleted.statusCode).toBe(200);
    const [left] = await staffList();
    expect(left.id).toBe(first.id);
    expect(Object.keys(left).sort()).toEqual(
      ['amountSen', 'bookingReference', 'childName', 'childYear', 'date', 'endTime', 'id', 'isBooked', 'selectedSchool', 'startTime', 'status', 'visitorContactNo', 'visitorEmail', 'visitorName'].sort(),
    );
  });
});
