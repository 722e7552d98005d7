import { sql } from 'drizzle-orm';
import { BookingMessage, ErrorCode, SlotAddMessage, TIMEZONE, latestSlotDateInMY, todayInMY } from 'shared-api/contract';
import { dayjs } from 'shared-api/zoned-dayjs';
import { slots } from '../src/slots/tables';
import { sha256 } from '../src/base/crypto';
import { DeleteMessage } from '../src/slots/slot-service';
import { auth, clearSlots, insertSlot, snapshotSlots, startTestApp, staffToken, stopTestApp, visitor, type TestContext } from './helpers';

jest.setTimeout(30_000);

let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await startTestApp();
  token = await staffToken(ctx);
});
afterAll(() => stopTestApp(ctx));
beforeEach(() => clearSlots(ctx.database));

/** The first weekday after the last day slots may be created for (two years from today, GMT+8). */
function weekdayAfterTwoYears(): string {
  let d = dayjs.tz(latestSlotDateInMY(), 'YYYY-MM-DD', TIMEZONE).add(1, 'day');
  while (d.day() === 0 || d.day() === 6) d = d.add(1, 'day');
  return d.format('YYYY-MM-DD');
}

/** The next weekday at least 2 days ahead (GMT+8), as YYYY-MM-DD. */
function nextWeekday(offsetDays = 2): string {
  let d = dayjs.tz(todayInMY(), 'YYYY-MM-DD', TIMEZONE).add(offsetDays, 'day');
  while (d.day() === 0 || d.day() === 6) d = d.add(1, 'day');
  return d.format('YYYY-MM-DD');
}
function nextWeekend(): string {
  let d = dayjs.tz(todayInMY(), 'YYYY-MM-DD', TIMEZONE).add(2, 'day');
  while (d.day() !== 6) d = d.add(1, 'day');
  return d.format('YYYY-MM-DD');
}

const staffOnly = [
  { method: 'GET' as const, url: '/slot/list' },
  { method: 'POST' as const, url: '/slot/add', payload: { date: '2030-01-07', startTime: '08:30', endTime: '09:00' } },
  { method: 'PUT' as const, url: '/slot/delete/1', payload: { slotId: 1 } },
];

describe('staff routes refuse missing, forged, expired and revoked tokens', () => {
  it.each(staffOnly)('$method $url', async (req) => {
    const expired = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'staff@example.com', password: 'correct-horse' } })).json().data.token;
    await ctx.database.db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(expired)}`);
    const revoked = (await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'staff@example.com', password: 'correct-horse' } })).json().data.token;
    await ctx.app.inject({ method: 'POST', url: '/auth/logout', headers: auth(revoked) });
    const before = await snapshotSlots(ctx.database);
    for (const headers of [{}, auth('forged'), auth(expired), auth(revoked)]) {
      const res = await ctx.app.inject({ ...req, headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, error: ErrorCode.UNAUTHORIZED });
    }
    expect(await snapshotSlots(ctx.database)).toBe(before);
  });
});

describe('GET /slot/list', () => {
  it('lists all live slots with visitor details, filtered by isBooked', async () => {
    const free = await insertSlot(ctx.database, 30);
    const booked = await insertSlot(ctx.database, 40, { status: 'booked', ...visitor, visitorContactNo: '0123456789', bookingReference: 'BK-1', amountSen: 5000 });
    const past = await insertSlot(ctx.database, -30);
    await insertSlot(ctx.database, 50, { deletedAt: new Date() });
    const all = (await ctx.app.inject({ url: '/slot/list', headers: auth(token) })).json();
    expect(all.data.timeSlots.count).toBe(3);
    expect(all.data.timeSlots.rows.map((r: { id: number }) => r.id)).toEqual([past.id, free.id, booked.id]);
    const bookedOnly = (await ctx.app.inject({ url: '/slot/list?isBooked=true', headers: auth(token) })).json();
    expect(bookedOnly.data.timeSlots.rows).toEqual([
      expect.objectContaining({
        id: booked.id,
        isBooked: true,
        status: 'booked',
        visitorName: visitor.visitorName,
        visitorEmail: visitor.visitorEmail,
        visitorContactNo: '0123456789',
        selectedSchool: visitor.selectedSchool,
        bookingReference: 'BK-1',
        amountSen: 5000,
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/),
      }),
    ]);
    const availableOnly = (await ctx.app.inject({ url: '/slot/list?isBooked=false', headers: auth(token) })).json();
    expect(availableOnly.data.timeSlots.rows.map((r: { id: number }) => r.id)).toEqual([past.id, free.id]);
  });

  it('refuses isBooked=maybe', async () => {
    const res = await ctx.app.inject({ url: '/slot/list?isBooked=maybe', headers: auth(token) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: ErrorCode.VALIDATION_ERROR, message: expect.stringMatching(/^isBooked: /) });
  });
});

describe('POST /slot/add', () => {
  const add = (payload: unknown) => ctx.app.inject({ method: 'POST', url: '/slot/add', payload: payload as object, headers: auth(token) });

  it('creates a 30-minute slot from 24-hour times, shown in GMT+8', async () => {
    const date = nextWeekday();
    const res = await add({ date, startTime: '08:30', endTime: '09:00' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.slot).toMatchObject({ date: `${date}T08:30:00+08:00`, startTime: '08:30', endTime: '09:00', status: 'available', isBooked: false });
    const [row] = await ctx.database.db.select().from(slots);
    expect(row.startAt.toISOString()).toBe(dayjs.tz(`${date} 08:30`, 'YYYY-MM-DD HH:mm', TIMEZONE).toISOString());
    expect(row.endAt.getTime() - row.startAt.getTime()).toBe(30 * 60_000);
  });

  it('accepts 12-hour times', async () => {
    const res = await add({ date: nextWeekday(), startTime: '02:30 PM', endTime: '3:00 pm' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.slot).toMatchObject({ startTime: '14:30', endTime: '15:00' });
    const noon = await add({ date: nextWeekday(), startTime: '12:00 PM', endTime: '12:30 PM' });
    expect(noon.json().data.slot.startTime).toBe('12:00');
  });

  it.each([
    ['today', () => ({ date: todayInMY(), startTime: '23:00', endTime: '23:30' }), SlotAddMessage.tooEarly],
    ['a past date', () => ({ date: '2020-01-06', startTime: '08:30', endTime: '09:00' }), SlotAddMessage.tooEarly],
    ['a weekend', () => ({ date: nextWeekend(), startTime: '08:30', endTime: '09:00' }), SlotAddMessage.weekend],
    ['an end not 30 minutes after the start', () => ({ date: nextWeekday(), startTime: '08:30', endTime: '09:30' }), SlotAddMessage.badLength],
    ['an end before the start', () => ({ date: nextWeekday(), startTime: '08:30', endTime: '08:00' }), SlotAddMessage.badLength],
    ['a slot crossing midnight', () => ({ date: nextWeekday(), startTime: '23:45', endTime: '00:15' }), SlotAddMessage.timeTooLate],
    ['a slot ending at midnight', () => ({ date: nextWeekday(), startTime: '11:30 PM', endTime: '12:00 AM' }), SlotAddMessage.timeTooLate],
    ['9999-12-31', () => ({ date: '9999-12-31', startTime: '08:30', endTime: '09:00' }), SlotAddMessage.tooFar],
    ['a weekday just over two years ahead', () => ({ date: weekdayAfterTwoYears(), startTime: '08:30', endTime: '09:00' }), SlotAddMessage.tooFar],
    ['a malformed start time', () => ({ date: nextWeekday(), startTime: '8.30', endTime: '09:00' }), 'Time must be HH:mm or hh:mm AM/PM'],
    ['an impossible time', () => ({ date: nextWeekday(), startTime: '25:00', endTime: '25:30' }), 'Time must be HH:mm or hh:mm AM/PM'],
    ['13 PM', () => ({ date: nextWeekday(), startTime: '13:00 PM', endTime: '13:30 PM' }), 'Time must be HH:mm or hh:mm AM/PM'],
    ['a malformed date', () => ({ date: '07/01/2030', startTime: '08:30', endTime: '09:00' }), 'Date must be YYYY-MM-DD'],
    ['an impossible date', () => ({ date: '2030-02-30', startTime: '08:30', endTime: '09:00' }), SlotAddMessage.badDate],
    ['a missing end time', () => ({ date: nextWeekday(), startTime: '08:30' }), /^endTime: /],
  ])('refuses %s with a clear 400 and creates nothing', async (_name, payload, message) => {
    const res = await add(payload());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, data: null, error: ErrorCode.VALIDATION_ERROR, message: expect.stringMatching(typeof message === 'string' ? `^${message.replace(/[()/.?]/g, '\\$&')}$` : message) });
    expect(await ctx.database.db.select().from(slots)).toEqual([]);
  });

  it('refuses a duplicate (also written in the other time format), but a deleted slot frees its time', async () => {
    const date = nextWeekday();
    const first = await add({ date, startTime: '14:00', endTime: '14:30' });
    const again = await add({ date, startTime: '02:00 PM', endTime: '02:30 PM' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: ErrorCode.SLOT_EXISTS, message: SlotAddMessage.duplicate });
    const id = first.json().data.slot.id;
    await ctx.app.inject({ method: 'PUT', url: `/slot/delete/${id}`, payload: { slotId: id }, headers: auth(token) });
    expect((await add({ date, startTime: '14:00', endTime: '14:30' })).statusCode).toBe(201);
  });
});

describe('PUT /slot/delete/{slotId}', () => {
  const del = (id: number | string, payload: unknown) =>
    ctx.app.inject({ method: 'PUT', url: `/slot/delete/${id}`, payload: payload as object, headers: auth(token) });

  it('soft-deletes an available slot (gone from both lists, row kept)', async () => {
    const s = await insertSlot(ctx.database, 30);
    const res = await del(s.id, { slotId: s.id, deletedAt: new Date().toISOString() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Slot deleted successfully' });
    expect((await ctx.app.inject('/public/list')).json().data.slots).toEqual([]);
    expect((await ctx.app.inject({ url: '/slot/list', headers: auth(token) })).json().data.timeSlots.rows).toEqual([]);
    const [row] = await ctx.database.db.select().from(slots);
    expect(row.deletedAt).toBeInstanceOf(Date);
  });

  it('refuses a booked slot, a held slot, an unknown or deleted slot and a mismatched id, changing nothing', async () => {
    const booked = await insertSlot(ctx.database, 30, { status: 'booked', ...visitor });
    const held = await insertSlot(ctx.database, 31, { holdTokenHash: 'h', holdExpiresAt: new Date(Date.now() + 600_000) });
    const gone = await insertSlot(ctx.database, 32, { deletedAt: new Date() });
    const before = await snapshotSlots(ctx.database);
    const cases: [number | string, unknown, number, string, string | RegExp][] = [
      [booked.id, { slotId: booked.id }, 409, ErrorCode.SLOT_NOT_AVAILABLE, DeleteMessage.booked],
      [held.id, { slotId: held.id }, 409, ErrorCode.SLOT_RESERVED, DeleteMessage.held],
      [gone.id, { slotId: gone.id }, 404, ErrorCode.NOT_FOUND, DeleteMessage.notFound],
      [999999, { slotId: 999999 }, 404, ErrorCode.NOT_FOUND, DeleteMessage.notFound],
      [booked.id, { slotId: held.id }, 400, ErrorCode.VALIDATION_ERROR, /does not match/],
      ['abc', { slotId: 1 }, 400, ErrorCode.VALIDATION_ERROR, /^slotId: /],
      [held.id, {}, 400, ErrorCode.VALIDATION_ERROR, /^slotId: /],
    ];
    for (const [id, payload, status, code, message] of cases) {
      const res = await del(id, payload);
      expect({ id, status: res.statusCode }).toEqual({ id, status });
      expect(res.json()).toMatchObject({ success: false, error: code, message: expect.stringMatching(message) });
    }
    expect(await snapshotSlots(ctx.database)).toBe(before);
  });
});

describe('holds: POST /slot/{id}/reserve and /release', () => {
  const reserve = (id: number | string, payload?: unknown) =>
    ctx.app.inject({ method: 'POST', url: `/slot/${id}/reserve`, ...(payload === undefined ? {} : { payload: payload as object }) });
  const release = (id: number, token: string) => ctx.app.inject({ method: 'POST', url: `/slot/${id}/release`, payload: { token } });

  it('holds for 15 minutes by default; the slot leaves the public list; the token is stored hashed', async () => {
    const s = await insertSlot(ctx.database, 30);
    const res = await reserve(s.id);
    expect(res.statusCode).toBe(200);
    const hold = res.json().data;
    expect(hold.slotId).toBe(s.id);
    expect(hold.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const minutes = (new Date(hold.expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14.5);
    expect(minutes).toBeLessThanOrEqual(15.01);
    const [row] = await ctx.database.db.select().from(slots);
    expect(row.holdTokenHash).toBe(sha256(hold.token));
    expect((await ctx.app.inject('/public/list')).json().data.slots).toEqual([]);
    const staffView = (await ctx.app.inject({ url: '/slot/list', headers: auth(token) })).json().data.timeSlots.rows[0];
    expect(staffView.status).toBe('reserved');
  });

  it('honours minutes up to 15 (one hold) and refuses more, less or a wrong type', async () => {
    const s = await insertSlot(ctx.database, 30);
    for (const [payload, field] of [[{ minutes: 16 }, 'minutes'], [{ minutes: 0 }, 'minutes'], [{ minutes: '5' }, 'minutes'], [{ minutes: 2.5 }, 'minutes']] as const) {
      const res = await reserve(s.id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: ErrorCode.VALIDATION_ERROR, message: expect.stringMatching(`^${field}: `) });
    }
    const ok = await reserve(s.id, { minutes: 15 });
    const minutes = (new Date(ok.json().data.expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14.5);
    expect(minutes).toBeLessThanOrEqual(15);
  });

  it('refuses a second hold with SLOT_RESERVED until the first expires', async () => {
    const s = await insertSlot(ctx.database, 30);
    await reserve(s.id, { minutes: 5 });
    const second = await reserve(s.id);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ error: ErrorCode.SLOT_RESERVED, message: BookingMessage.slotReserved });
    await ctx.database.db.execute(sql`UPDATE slots SET hold_expires_at = now() - interval '1 second'`);
    expect((await reserve(s.id)).statusCode).toBe(200);
  });

  it.each([
    ['booked', { status: 'booked' as const, ...visitor }, 30],
    ['deleted', { deletedAt: new Date() }, 30],
    ['past', {}, -2],
    ['inside the 1-hour lead time', {}, 0.75],
  ])('refuses a %s slot with SLOT_NOT_AVAILABLE', async (_name, extra, hours) => {
    const s = await insertSlot(ctx.database, hours, extra);
    const before = await snapshotSlots(ctx.database);
    const res = await reserve(s.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: ErrorCode.SLOT_NOT_AVAILABLE, message: BookingMessage.slotNotAvailable });
    expect(await snapshotSlots(ctx.database)).toBe(before);
  });

  it('answers 404 for an unknown slot and 400 for a malformed id', async () => {
    expect((await reserve(424242)).json()).toMatchObject({ error: ErrorCode.NOT_FOUND });
    expect((await reserve(424242)).statusCode).toBe(404);
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await reserve(id);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(ErrorCode.VALIDATION_ERROR);
    }
  });

  it('release with the token frees the slot; a wrong or used token is refused and changes nothing', async () => {
    const s = await insertSlot(ctx.database, 30);
    const hold = (await reserve(s.id)).json().data;
    const wrong = await release(s.id, 'x'.repeat(43));
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ error: ErrorCode.HOLD_INVALID });
    expect((await ctx.app.inject('/public/list')).json().data.slots).toEqual([]);
    const ok = await release(s.id, hold.token);
    expect(ok.statusCode).toBe(200);
    expect((await ctx.app.inject('/public/list')).json().data.slots).toHaveLength(1);
    expect((await release(s.id, hold.token)).statusCode).toBe(409);
    const short = await ctx.app.inject({ method: 'POST', url: `/slot/${s.id}/release`, payload: { token: 'short' } });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/^token: /);
  });
});

describe('PUT /slot/{id}: booking', () => {
  const book = (id: number | string, payload: unknown, headers = {}) =>
    ctx.app.inject({ method: 'PUT', url: `/slot/${id}`, payload: payload as object, headers });

  it('a staff token books directly; the visitor is written, sanitised; the slot leaves the public list', async () => {
    const s = await insertSlot(ctx.database, 30);
    const res = await book(s.id, { ...visitor, visitorEmail: '  Aina@Example.COM ', id: s.id }, auth(token));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.slot).toMatchObject({
      id: s.id,
      isBooked: true,
      status: 'booked',
      visitorName: 'Nur Aina',
      visitorEmail: 'aina@example.com',
      visitorContactNo: '0123456789',
      bookingReference: expect.stringMatching(/^BK-[0-9A-F]{10}$/),
    });
    expect((await ctx.app.inject('/public/list')).json().data.slots).toEqual([]);
    const again = await book(s.id, visitor, auth(token));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: ErrorCode.SLOT_NOT_AVAILABLE, message: BookingMessage.slotNotAvailable });
  });

  it('an anonymous caller without a completed payment is refused with PAYMENT_NOT_COMPLETED and nothing changes', async () => {
    const s = await insertSlot(ctx.database, 30);
    const before = await snapshotSlots(ctx.database);
    const res = await book(s.id, { ...visitor, id: s.id, paymentId: 'pay_123' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ success: false, error: ErrorCode.PAYMENT_NOT_COMPLETED, message: expect.stringMatching(/no completed payment/) });
    expect(await snapshotSlots(ctx.database)).toBe(before);
  });

  it('a forged or expired bearer gets 401, not an anonymous attempt', async () => {
    const s = await insertSlot(ctx.database, 30);
    const res = await book(s.id, visitor, auth('forged'));
    expect(res.statusCode).toBe(401);
  });

  it('refuses a slot another visitor holds (SLOT_RESERVED), and books it once the hold has expired', async () => {
    const s = await insertSlot(ctx.database, 30);
    await ctx.app.inject({ method: 'POST', url: `/slot/${s.id}/reserve`, payload: {} });
    const held = await book(s.id, visitor, auth(token));
    expect(held.statusCode).toBe(409);
    expect(held.json()).toMatchObject({ error: ErrorCode.SLOT_RESERVED, message: BookingMessage.slotReserved });
    await ctx.database.db.execute(sql`UPDATE slots SET hold_expires_at = now() - interval '1 second'`);
    const ok = await book(s.id, visitor, auth(token));
    expect(ok.statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(slots);
    expect(row.holdTokenHash).toBeNull();
    expect(row.holdExpiresAt).toBeNull();
  });

  it.each([
    ['past', {}, -1],
    ['inside the lead time', {}, 0.5],
    ['deleted', { deletedAt: new Date() }, 30],
  ])('refuses a %s slot with SLOT_NOT_AVAILABLE', async (_name, extra, hours) => {
    const s = await insertSlot(ctx.database, hours, extra);
    const res = await book(s.id, visitor, auth(token));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(ErrorCode.SLOT_NOT_AVAILABLE);
  });

  it.each([
    [{ ...visitor, visitorName: 'A' }, 'Name must be at least 2 characters'],
    [{ ...visitor, visitorName: '' }, 'Name is required'],
    [{ ...visitor, visitorName: undefined }, 'Name is required'],
    [{ ...visitor, visitorEmail: 'aina@' }, 'Please enter a valid email address'],
    [{ ...visitor, visitorEmail: '' }, 'Email is required'],
    [{ ...visitor, visitorContactNo: '12-34' }, 'Please enter a valid phone number (8-15 digits)'],
    [{ ...visitor, visitorContactNo: '' }, 'Contact number is required'],
    [{ ...visitor, selectedSchool: ' ' }, 'Please select a school'],
    [{ ...visitor, id: 'x' }, /^id: /],
  ])('refuses %j with the form’s own message and changes nothing', async (payload, message) => {
    const s = await insertSlot(ctx.database, 30);
    const before = await snapshotSlots(ctx.database);
    const res = await book(s.id, payload, auth(token));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: ErrorCode.VALIDATION_ERROR, message: typeof message === 'string' ? message : expect.stringMatching(message) });
    expect(await snapshotSlots(ctx.database)).toBe(before);
  });

  it('refuses a body id that differs from the address', async () => {
    const s = await insertSlot(ctx.database, 30);
    const res = await book(s.id, { ...visitor, id: s.id + 1 }, auth(token));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/does not match/);
  });

  it('answers 404 for an unknown slot', async () => {
    const res = await book(777777, visitor, auth(token));
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(ErrorCode.NOT_FOUND);
  });
});
