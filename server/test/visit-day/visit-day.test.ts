// Issue 40, the staff's day: GET /staff/visits/day (visits in order, children, documents, attendance), Arrived and
// No-show (POST /staff/visits/:reference/attendance), the undo within 5 minutes (DELETE), the marks for the Booked
// list and the CSV (GET /staff/visits/attendance), the audit trail, and refusals. PGlite; the clock is fixed.
import { and, eq } from 'drizzle-orm';
import { addDays, VisitDayMessage, type VisitDay } from 'shared-api/contract';
import { auditLog } from '../../src/audit/table';
import { visitAttendance } from '../../src/visit-day/tables';
import { auth, staffToken, startTestApp, stopTestApp, STAFF, type TestContext } from '../helpers';
import { at, MINUTE, paidBooking, seenOnPaper, staffBooking, uploaded, visitDay } from './support';

jest.setTimeout(60_000);

describe('the staff day: visits, Arrived, No-show and undo', () => {
  let ctx: TestContext;
  let staff: string;
  let one: Awaited<ReturnType<typeof paidBooking>>;
  let two: Awaited<ReturnType<typeof paidBooking>>;
  let unpaid: Awaited<ReturnType<typeof staffBooking>>;
  let cancelled: Awaited<ReturnType<typeof paidBooking>>;
  const clock = (when: Date) => {
    ctx.app.visitDay.now = () => when;
  };
  const mark = (reference: string, body: Record<string, unknown>, token = staff) =>
    ctx.app.inject({ method: 'POST', url: `/staff/visits/${reference}/attendance`, headers: auth(token), payload: body });
  const undo = (reference: string, start: string, token = staff) =>
    ctx.app.inject({ method: 'DELETE', url: `/staff/visits/${reference}/attendance?start=${encodeURIComponent(start)}`, headers: auth(token) });
  const day = async (d = visitDay) => {
    const res = await ctx.app.inject({ method: 'GET', url: `/staff/visits/day?day=${d}`, headers: auth(staff) });
    expect(res.statusCode).toBe(200);
    return res.json().data as VisitDay;
  };
  const audits = (reference: string) =>
    ctx.database.db.select().from(auditLog).where(eq(auditLog.target, reference)).orderBy(auditLog.id);

  beforeAll(async () => {
    ctx = await startTestApp();
    staff = await staffToken(ctx);
    // Out of start order on purpose: the day lists them by start.
    unpaid = await staffBooking(ctx.database, 'walkin', at(11));
    two = await paidBooking(ctx.database, 'two', at(10), { two: true });
    one = await paidBooking(ctx.database, 'one', at(9));
    cancelled = await paidBooking(ctx.database, 'gone', at(12), { cancelled: true });
    // Adam (one child): his birth certificate uploaded, his ID seen on paper. Siti (of two): her immunisation record.
    await uploaded(ctx.database, one.id, 1, 'birthCertificate');
    await seenOnPaper(ctx.database, one.id, 1, 'guardianId');
    await uploaded(ctx.database, two.id, 2, 'immunisation');
    // A visit on the next day is not this day's.
    await paidBooking(ctx.database, 'tomorrow', at(9, 0, addDays(visitDay, 1)));
  });
  afterAll(() => stopTestApp(ctx));

  it("lists the day's visits in start order with parent, children, schools, documents and no attendance yet", async () => {
    clock(at(8));
    const { visits, now } = await day();
    expect(now).toBe(at(8).toISOString());
    expect(visits.map((v) => [v.reference, v.start, v.paid])).toEqual([
      [one.reference, at(9).toISOString(), true],
      [two.reference, at(10).toISOString(), true],
      [unpaid.reference, at(11).toISOString(), false],
    ]);
    expect(visits[0]).toMatchObject({ visitorName: 'Nurul Huda', visitorContactNo: '0127654321', end: at(9, 30).toISOString(), attendance: null });
    expect(visits[0].children).toEqual([
      { position: 1, name: 'Adam Firdaus', school: 'Seri Ilmu Private Secondary', checklist: { required: 4, inCount: 2, missing: ['immunisation', 'academicRecords'] } },
    ]);
    expect(visits[1].children).toEqual([
      { position: 1, name: 'Adam Firdaus', school: 'Seri Ilmu Private Secondary', checklist: { required: 4, inCount: 0, missing: ['guardianId', 'birthCertificate', 'immunisation', 'academicRecords'] } },
      { position: 2, name: 'Siti Hajar', school: 'Seri Ilmu Private Primary', checklist: { required: 4, inCount: 1, missing: ['guardianId', 'birthCertificate', 'academicRecords'] } },
    ]);
    // A staff booking has no manage link, so no documents were asked for ahead.
    expect(visits[2].children).toEqual([{ position: 1, name: 'Lim Jun Hao', school: 'Seri Ilmu Private Secondary', checklist: null }]);
  });

  it('marks Arrived on the day (audited once; the same mark again answers the same), and another mark is 409', async () => {
    clock(at(8, 50));
    const first = await mark(one.reference, { start: one.start, state: 'arrived' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      message: VisitDayMessage.arrived,
      data: { reference: one.reference, start: one.start, attendance: { state: 'arrived', at: at(8, 50).toISOString(), by: STAFF.email, undoableUntil: at(8, 55).toISOString() } },
    });
    const again = await mark(one.reference, { start: one.start, state: 'arrived' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.attendance.at).toBe(at(8, 50).toISOString());
    clock(at(9, 5));
    const other = await mark(one.reference, { start: one.start, state: 'noShow' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ error: 'ATTENDANCE_ALREADY_MARKED', message: VisitDayMessage.alreadyMarked });
    expect((await audits(one.reference)).map((a) => [a.action, a.actor, (a.detail as { start: string }).start])).toEqual([['visit_arrived', STAFF.email, one.start]]);
    expect((await day()).visits[0].attendance).toMatchObject({ state: 'arrived', by: STAFF.email });
  });

  it('refuses Arrived before the visit’s day and No-show before its start, with a clear message; No-show after the start is recorded', async () => {
    clock(at(20, 0, addDays(visitDay, -1)));
    const early = await mark(two.reference, { start: two.start, state: 'arrived' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: 'ATTENDANCE_NOT_YET', message: VisitDayMessage.notItsDay });

    clock(at(9, 59));
    const beforeStart = await mark(two.reference, { start: two.start, state: 'noShow' });
    expect(beforeStart.statusCode).toBe(409);
    expect(beforeStart.json()).toMatchObject({ error: 'ATTENDANCE_NOT_YET', message: VisitDayMessage.noShowTooEarly, reason: { rule: 'noShowBeforeStart' } });
    expect(await ctx.database.db.select().from(visitAttendance).where(eq(visitAttendance.reference, two.reference))).toEqual([]);

    clock(at(10, 1));
    const after = await mark(two.reference, { start: two.start, state: 'noShow' });
    expect(after.statusCode).toBe(200);
    expect(after.json().data.attendance).toMatchObject({ state: 'noShow', at: at(10, 1).toISOString() });
    const [record] = await audits(two.reference);
    expect(record).toMatchObject({ action: 'visit_no_show', actor: STAFF.email });
    expect(record.detail).toEqual({ start: two.start, children: ['Adam Firdaus', 'Siti Hajar'] });
  });

  it('undoes a mark within 5 minutes (audited) and refuses after: too late to undo', async () => {
    clock(at(11, 0));
    expect((await mark(unpaid.reference, { start: unpaid.start, state: 'arrived' })).statusCode).toBe(200);
    clock(new Date(at(11, 4).getTime() + 59_000));
    const undone = await undo(unpaid.reference, unpaid.start);
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toMatchObject({ message: VisitDayMessage.undone, data: { attendance: null } });
    expect((await day()).visits[2].attendance).toBeNull();
    expect((await audits(unpaid.reference)).map((a) => a.action)).toEqual(['visit_arrived', 'visit_attendance_undone']);

    // Nothing marked now: nothing to undo.
    expect((await undo(unpaid.reference, unpaid.start)).json()).toMatchObject({ error: 'ATTENDANCE_NOT_MARKED' });

    clock(at(11, 10));
    expect((await mark(unpaid.reference, { start: unpaid.start, state: 'noShow' })).statusCode).toBe(200);
    clock(new Date(at(11, 10).getTime() + 5 * MINUTE + 1000));
    const late = await undo(unpaid.reference, unpaid.start);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: 'ATTENDANCE_UNDO_TOO_LATE', message: VisitDayMessage.undoTooLate });
    expect((await day()).visits[2].attendance).toMatchObject({ state: 'noShow' });
  });

  it('refuses a cancelled booking (409) and a reference or time with no booking (404), changing nothing', async () => {
    clock(at(13));
    const gone = await mark(cancelled.reference, { start: cancelled.start, state: 'noShow' });
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({ error: 'VISIT_CANCELLED', message: VisitDayMessage.cancelled });
    expect((await mark('PAY-NOBODY', { start: one.start, state: 'arrived' })).statusCode).toBe(404);
    // The right reference at a time it is not booked for.
    expect((await mark(two.reference, { start: one.start, state: 'arrived' })).json()).toMatchObject({ error: 'VISIT_NOT_FOUND' });
    expect(await ctx.database.db.select().from(visitAttendance).where(and(eq(visitAttendance.reference, cancelled.reference)))).toEqual([]);
    expect(await audits(cancelled.reference)).toEqual([]);
  });

  it('answers the marks of a range of days for the Booked list and the CSV', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/staff/visits/attendance?from=${visitDay}&to=${addDays(visitDay, 1)}`, headers: auth(staff) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.records.map((r: { reference: string; start: string; state: string }) => [r.reference, r.start, r.state])).toEqual([
      [one.reference, one.start, 'arrived'],
      [two.reference, two.start, 'noShow'],
      [unpaid.reference, unpaid.start, 'noShow'],
    ]);
    const none = await ctx.app.inject({ method: 'GET', url: `/staff/visits/attendance?from=${addDays(visitDay, 1)}&to=${addDays(visitDay, 2)}`, headers: auth(staff) });
    expect(none.json().data.records).toEqual([]);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const before = await ctx.database.db.select().from(visitAttendance);
    for (const url of ['/staff/visits/day?day=2026-02-30', '/staff/visits/day', `/staff/visits/attendance?from=${addDays(visitDay, 1)}&to=${visitDay}`, `/staff/visits/attendance?from=${visitDay}&to=${addDays(visitDay, 400)}`])
      expect((await ctx.app.inject({ method: 'GET', url, headers: auth(staff) })).statusCode).toBe(400);
    for (const body of [{ start: one.start, state: 'late' }, { start: 'tomorrow', state: 'arrived' }, { state: 'arrived' }, {}])
      expect((await mark(two.reference, body)).statusCode).toBe(400);
    expect((await undo(two.reference, 'soon')).statusCode).toBe(400);
    expect(await ctx.database.db.select().from(visitAttendance)).toEqual(before);
  });

  it('answers 401 to anyone without a staff session', async () => {
    const requests = [
      { method: 'GET' as const, url: `/staff/visits/day?day=${visitDay}` },
      { method: 'GET' as const, url: `/staff/visits/attendance?from=${visitDay}&to=${visitDay}` },
      { method: 'POST' as const, url: `/staff/visits/${two.reference}/attendance`, payload: { start: two.start, state: 'arrived' } },
      { method: 'DELETE' as const, url: `/staff/visits/${two.reference}/attendance?start=${encodeURIComponent(two.start)}` },
    ];
    for (const request of requests) {
      expect((await ctx.app.inject(request)).statusCode).toBe(401);
      expect((await ctx.app.inject({ ...request, headers: auth('not-a-session') })).statusCode).toBe(401);
    }
  });
});
