// Issue 37, its first step: a time that seats several children is one row per seat; the public list shows the time
// once, with its places left, while one seat is free; a one-seat slot keeps the spec's shape.
import { ErrorCode, SlotAddMessage } from 'shared-api/contract';
import { slots } from '../../src/slots/tables';
import { auth, clearSlots, insertSlot, startTestApp, staffToken, stopTestApp, visitor, weekdayAhead, type TestContext } from '../helpers';

jest.setTimeout(30_000);

let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await startTestApp();
  token = await staffToken(ctx);
});
afterAll(() => stopTestApp(ctx));
beforeEach(() => clearSlots(ctx.database));


const add = (payload: object) => ctx.app.inject({ method: 'POST', url: '/slot/add', payload, headers: auth(token) });
const publicList = async () => (await ctx.app.inject('/public/list')).json().data.slots as { id: number; startTime: string; placesLeft?: number }[];
// Each parent from a network of their own: the hold limits are not what is tested here.
const reserve = (id: number, parent: number) => ctx.app.inject({ method: 'POST', url: `/slot/${id}/reserve`, remoteAddress: `10.0.${parent}.1` });

test('a time with 3 seats is one entry with its places left, until its last seat is held', async () => {
  const date = weekdayAhead();
  const created = await add({ date, startTime: '09:00', endTime: '09:30', seats: 3 });
  expect(created.statusCode).toBe(201);
  expect(created.json().data.slot).toMatchObject({ startTime: '09:00', status: 'available' });
  expect(await ctx.database.db.select({ seat: slots.seat }).from(slots)).toHaveLength(3);

  const held: number[] = [];
  for (const [parent, left] of [[1, 3], [2, 2], [3, 1]]) {
    const [entry, ...others] = await publicList();
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ startTime: '09:00', placesLeft: left });
    expect(held).not.toContain(entry.id);
    const hold = await reserve(entry.id, parent);
    expect(hold.statusCode).toBe(200);
    held.push(entry.id);
  }
  expect(await publicList()).toEqual([]);
  // Every seat held: a fourth parent gets none of them.
  for (const id of held) expect((await reserve(id, 4)).json()).toMatchObject({ error: ErrorCode.SLOT_RESERVED });
});

test('two parents who chose the time as the list showed it each hold a seat of it; the answer names the seat held', async () => {
  await add({ date: weekdayAhead(), startTime: '11:00', endTime: '11:30', seats: 2 });
  const [shown] = await publicList();
  const first = (await reserve(shown.id, 1)).json().data;
  const second = (await reserve(shown.id, 2)).json().data;
  expect(first.slotId).toBe(shown.id);
  expect(second.slotId).not.toBe(shown.id);
  expect(second.token).toEqual(expect.any(String));
  const seats = await ctx.database.db.select({ id: slots.id, held: slots.holdTokenHash }).from(slots);
  expect(seats.map((seat) => seat.id).sort()).toEqual([first.slotId, second.slotId].sort());
  expect(seats.every((seat) => seat.held !== null)).toBe(true);
  expect(await publicList()).toEqual([]);
});

test("staff move a booking to a time whose listed seat went meanwhile: it lands on the time's free seat", async () => {
  const date = weekdayAhead();
  const from = (await add({ date, startTime: '08:30', endTime: '09:00' })).json().data.slot;
  const booked = await ctx.app.inject({ method: 'PUT', url: `/slot/${from.id}`, payload: { ...visitor, id: from.id }, headers: auth(token) });
  const reference = booked.json().data.slot.bookingReference as string;
  await add({ date, startTime: '11:00', endTime: '11:30', seats: 2 });
  const [listed] = await publicList();
  expect((await reserve(listed.id, 1)).statusCode).toBe(200);
  const moved = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${reference}/move`, payload: { slotId: listed.id }, headers: auth(token) });
  expect(moved.statusCode).toBe(200);
  const rows = await ctx.database.db.select().from(slots);
  const seat = rows.find((row) => row.bookingReference === reference)!;
  expect(seat).toMatchObject({ status: 'booked', seat: 2 });
  expect(rows.find((row) => row.id === from.id)).toMatchObject({ status: 'available' });
});

test('a one-seat slot keeps the spec shape beside other times, one of them with seats: no placesLeft', async () => {
  await add({ date: weekdayAhead(), startTime: '10:00', endTime: '10:30' });
  await add({ date: weekdayAhead(), startTime: '10:30', endTime: '11:00' });
  await add({ date: weekdayAhead(), startTime: '11:00', endTime: '11:30', seats: 2 });
  const [first, second, seated] = await publicList();
  for (const entry of [first, second]) expect(Object.keys(entry).sort()).toEqual(['date', 'endTime', 'id', 'isBooked', 'startTime', 'status']);
  expect(seated).toMatchObject({ startTime: '11:00', placesLeft: 2 });
});

test.each([0, 7, 2.5, '2'])('seats %p is refused with a clear 400 and creates nothing', async (seats) => {
  const res = await add({ date: weekdayAhead(), startTime: '09:00', endTime: '09:30', seats });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error: ErrorCode.VALIDATION_ERROR, message: expect.stringMatching(/^seats: /) });
  expect(await ctx.database.db.select().from(slots)).toEqual([]);
});

test('a time already there is refused whatever its seats, and nothing is added to it', async () => {
  const date = weekdayAhead();
  await add({ date, startTime: '09:00', endTime: '09:30' });
  const again = await add({ date, startTime: '09:00', endTime: '09:30', seats: 2 });
  expect(again.statusCode).toBe(409);
  expect(again.json()).toMatchObject({ error: ErrorCode.SLOT_EXISTS, message: SlotAddMessage.duplicate });
  expect(await ctx.database.db.select().from(slots)).toHaveLength(1);
});

describe('PUT /slot/{id}/seats: staff raise or lower a time\'s seats', () => {
  const setSeats = (id: number, seats: unknown, headers: Record<string, string> = auth(token)) => ctx.app.inject({ method: 'PUT', url: `/slot/${id}/seats`, payload: { seats }, headers });
  const liveSeats = async () => (await ctx.database.db.select().from(slots)).filter((row) => row.deletedAt === null).map((row) => row.seat).sort();

  test('raising adds free seats the list shows at once; lowering removes free ones, never a held or booked one', async () => {
    const created = (await add({ date: weekdayAhead(), startTime: '09:00', endTime: '09:30' })).json().data.slot;
    const raised = await setSeats(created.id, 3);
    expect(raised.statusCode).toBe(200);
    expect(raised.json().data).toMatchObject({ seats: 3, slots: [{ seat: 1, seats: 3, seatsTaken: 0 }, { seat: 2 }, { seat: 3 }] });
    expect((await publicList())[0].placesLeft).toBe(3);

    // Two parents hold seats: the time cannot go below 2, and lowering to 2 removes the free seat.
    await reserve(created.id, 1);
    await reserve(created.id, 2);
    const tooFew = await setSeats(created.id, 1);
    expect(tooFew.statusCode).toBe(409);
    expect(tooFew.json().message).toBe('2 children are booked or paying at this time, so it needs at least 2 seats.');
    expect(await liveSeats()).toEqual([1, 2, 3]);
    const lowered = await setSeats(created.id, 2);
    expect(lowered.json().data.seats).toBe(2);
    const live = (await ctx.database.db.select().from(slots)).filter((row) => row.deletedAt === null);
    expect(live.every((row) => row.holdTokenHash !== null)).toBe(true);
    expect(await publicList()).toEqual([]);
  });

  test('bad seats or a missing slot change nothing; a parent cannot call it', async () => {
    const created = (await add({ date: weekdayAhead(), startTime: '10:00', endTime: '10:30' })).json().data.slot;
    for (const seats of [0, 7, 1.5, '3', null]) expect((await setSeats(created.id, seats)).statusCode).toBe(400);
    expect((await setSeats(created.id + 1000, 2)).statusCode).toBe(404);
    expect((await setSeats(created.id, 2, {})).statusCode).toBe(401);
    expect(await liveSeats()).toEqual([1]);
    // A time that has started keeps its seats.
    const past = await insertSlot(ctx.database, -1);
    const started = await setSeats(past.id, 3);
    expect(started.statusCode).toBe(409);
    expect(started.json().message).toBe('This time has already started, so its seats can no longer change.');
    expect(await liveSeats()).toEqual([1, 1]);
  });
});
