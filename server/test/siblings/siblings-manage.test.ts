// Issue 37: after paying for brothers and sisters at one time, the parent cancels one child (that child's share back,
// by the same refund rule) or all, and a move takes every child still booked to a time with as many free seats.
import { and, eq, sql } from 'drizzle-orm';
import { ErrorCode } from 'shared-api/contract';
import { slots } from '../../src/slots/tables';
import { paymentChildren } from '../../src/payments/tables';
import { sandboxSessions } from '../../src/payments/gateways/tables';
import { adminToken, auth, staffToken } from '../helpers';
import { initiateBody, initiateOk, markSandboxPaid, parentOf, paymentRow, postSandboxCallback, startPaymentsApp, waitFor, type Driver, type PayCtx } from '../payments/support';
import { cancel, eventsOf, mailsOf, manageGet, reschedule, tokenIn } from '../bookings/support';
import { findPerson } from '../../src/privacy/person';
import { applyRetention } from '../../src/privacy/retention';
import { bookingEvents } from '../../src/bookings/tables';

jest.setTimeout(90_000);

const sister = { childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary' };

describe.each<Driver>(['pglite', 'postgres'])('a booking of two children on %s', (driver) => {
  let ctx: PayCtx;
  let staff: string;
  beforeAll(async () => {
    ctx = await startPaymentsApp(driver);
    staff = await staffToken(ctx as never);
    // A timetable of 50 times a month ahead: each network may hold 5 seats for free (the hold limits are tested elsewhere).
    for (let day = 0; day < 50; day++) await seatedTime(24 * 30 + day, 1);
  });
  afterAll(() => ctx?.close());

  async function seatedTime(hoursAhead: number, seats: number) {
    const start = new Date(Math.floor((Date.now() + hoursAhead * 3_600_000) / 60_000) * 60_000);
    const end = new Date(start.getTime() + 30 * 60_000);
    return ctx.database.db
      .insert(slots)
      .values(Array.from({ length: seats }, (_, i) => ({ startAt: start, endAt: end, seat: i + 1 })))
      .returning();
  }

  /** Two children (Secondary, then Primary) paid on the first seat's time: RM 75.00 + RM 45.00. */
  async function bookTwo(hoursAhead: number, seats: number, email: string) {
    const time = await seatedTime(hoursAhead, seats);
    const { session, sandboxId } = await initiateOk(ctx, initiateBody(time[0], { visitorEmail: email, siblings: [sister] }));
    await markSandboxPaid(ctx, sandboxId);
    await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid', amount: 12000 });
    const p = await waitFor(async () => {
      const row = await paymentRow(ctx, session.id);
      return row.status === 'completed' && row;
    });
    const confirmation = (await mailsOf(ctx, p.id)).find((m) => m.kind === 'visitor_confirmation')!;
    return { time, payment: p, sandboxId, token: tokenIn(confirmation.textBody), address: parentOf(email).address };
  }
  const freeSeats = async (startAt: Date) =>
    (await ctx.database.db.select().from(slots).where(and(eq(slots.startAt, startAt), eq(slots.status, 'available')))).length;
  const refundedAtGateway = async (sandboxId: string) => (await ctx.database.db.select().from(sandboxSessions).where(eq(sandboxSessions.id, sandboxId)))[0].refundedSen;

  test('one confirmation names both children; the manage page lists them with what cancelling each alone gives back', async () => {
    const { payment, token } = await bookTwo(72, 3, 'two.kids@example.com');
    const confirmations = (await mailsOf(ctx, payment.id)).filter((m) => m.kind === 'visitor_confirmation');
    expect(confirmations).toHaveLength(1);
    const view = (await manageGet(ctx, token)).json().data;
    expect(view.amountPaidSen).toBe(12000);
    expect(view.cancelQuote).toEqual({ percent: 100, amountSen: 12000 });
    expect(view.children.map((c: { childName: string; cancelQuote: unknown }) => [c.childName, c.cancelQuote])).toEqual([
      ['Adam Firdaus', { percent: 100, amountSen: 7500 }],
      ['Siti Hajar', { percent: 100, amountSen: 4500 }],
    ]);
  });

  test("the parent cancels one child: that child's seat is free again, their share comes back, the other stays booked; then all", async () => {
    const { time, payment, sandboxId, token } = await bookTwo(74, 3, 'cancel.one@example.com');
    expect(await freeSeats(time[0].startAt)).toBe(1);
    // A quote that is not the child's is refused and changes nothing.
    expect((await cancel(ctx, token, 7500, undefined)).statusCode).toBe(409);
    const one = await ctx.app.inject({ method: 'POST', url: `/api/booking/manage/${token}/cancel`, payload: { expectedRefundSen: 4500, child: 2 }, remoteAddress: '10.9.9.9' });
    expect(one.statusCode).toBe(200);
    const view = one.json().data;
    expect(view.state).toBe('booked');
    expect(view.children[1]).toMatchObject({ childName: 'Siti Hajar', cancelled: true, refundSen: 4500, cancelQuote: null });
    // The last child left is cancelled with the booking, not alone.
    expect(view.children[0].cancelQuote).toBeNull();
    expect(view.cancelQuote).toEqual({ percent: 100, amountSen: 7500 });
    expect(await freeSeats(time[0].startAt)).toBe(2);
    await waitFor(async () => (await refundedAtGateway(sandboxId)) === 4500);
    await waitFor(async () => (await ctx.database.db.select().from(paymentChildren).where(eq(paymentChildren.paymentId, payment.id)))[1]?.refundState === 'refunded');
    expect((await paymentRow(ctx, payment.id)).status).toBe('completed');
    expect((await eventsOf(ctx, payment.id)).map((e) => e.kind)).toEqual(expect.arrayContaining(['child_cancelled', 'child_refunded']));
    // The same child again: refused.
    const again = await ctx.app.inject({ method: 'POST', url: `/api/booking/manage/${token}/cancel`, payload: { expectedRefundSen: 0, child: 2 }, remoteAddress: '10.9.9.9' });
    expect(again.statusCode).toBe(409);

    const all = await cancel(ctx, token, 7500);
    expect(all.statusCode).toBe(200);
    expect(all.json().data.state).toBe('cancelled');
    expect(await freeSeats(time[0].startAt)).toBe(3);
    await waitFor(async () => (await refundedAtGateway(sandboxId)) === 12000);
    expect((await paymentRow(ctx, payment.id)).refundAmountSen).toBe(7500);
  });

  test('a move takes both children to a time with two free seats; a time with one free seat is refused and nothing changes', async () => {
    const { payment, token } = await bookTwo(76, 2, 'move.all@example.com');
    const narrow = await seatedTime(80, 2);
    await ctx.database.db.update(slots).set({ holdTokenHash: 'someone-else', holdExpiresAt: sql`now() + interval '10 minutes'` }).where(eq(slots.id, narrow[1].id));
    const refused = await reschedule(ctx, token, narrow[0].id);
    expect(refused.statusCode).toBe(409);
    expect(await ctx.database.db.select().from(slots).where(eq(slots.bookingReference, payment.reference))).toHaveLength(2);
    expect(await freeSeats(narrow[0].startAt)).toBe(2);

    const wide = await seatedTime(82, 3);
    const moved = await reschedule(ctx, token, wide[0].id);
    expect(moved.statusCode).toBe(200);
    const seats = await ctx.database.db.select().from(slots).where(and(eq(slots.bookingReference, payment.reference), eq(slots.status, 'booked')));
    expect(seats.map((s) => s.startAt.getTime())).toEqual([wide[0].startAt.getTime(), wide[0].startAt.getTime()]);
    expect(seats.map((s) => s.childName).sort()).toEqual(['Adam Firdaus', 'Siti Hajar']);
    const children = await ctx.database.db.select().from(paymentChildren).where(eq(paymentChildren.paymentId, payment.id));
    expect(children.map((c) => c.slotId).sort()).toEqual(seats.map((s) => s.id).sort());
    expect((await paymentRow(ctx, payment.id)).slotId).toBe(children.find((c) => c.position === 1)!.slotId);
  });

  test('staff see the booking once with both children, and cancel one child without a refund', async () => {
    const { payment } = await bookTwo(84, 2, 'staff.view@example.com');
    const list = (await ctx.app.inject({ url: '/staff/bookings', headers: auth(staff) })).json().data.bookings as { reference: string; paymentId: string | null; children?: { childName: string }[] }[];
    const rows = list.filter((b) => b.reference === payment.reference);
    expect(rows).toHaveLength(1);
    expect(rows[0].children!.map((c) => c.childName)).toEqual(['Adam Firdaus', 'Siti Hajar']);
    const cancelled = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${payment.reference}/cancel`, payload: { refund: false, child: 1 }, headers: auth(staff) });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data).toMatchObject({ state: 'booked', children: [{ cancelled: true, refundSen: null }, { cancelled: false }] });
    const unknown = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${payment.reference}/cancel`, payload: { refund: false, child: 4 }, headers: auth(staff) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(ErrorCode.NOT_FOUND);
  });

  test("the staff's calendar feed has one event per booking, naming its children still booked", async () => {
    const { payment } = await bookTwo(86, 3, 'feed.view@example.com');
    const admin = await adminToken(ctx as never, { email: 'office.admin@example.com', password: 'another-correct-horse' });
    const feed = await ctx.app.inject({ method: 'POST', url: '/staff/calendar-feed', headers: auth(admin) });
    const url = new URL(feed.json().data.url as string);
    const ics = (await ctx.app.inject({ url: url.pathname, remoteAddress: '10.77.0.9' })).body.replace(/\r\n[ \t]/g, '');
    const events = ics.split('BEGIN:VEVENT').filter((e) => e.includes(`Reference: ${payment.reference}`));
    expect(events).toHaveLength(1);
    expect(events[0]).toContain('SUMMARY:Assessment: Adam Firdaus\\, Form 1 (Seri Ilmu Private Secondary)\\; Siti Hajar\\, Year 1 (Seri Ilmu Private Primary)');
    // No seat of a booking of several shows as a booking of its own (an unpaid one, named by its slot).
    expect(ics.split('BEGIN:VEVENT').filter((e) => e.includes('Siti Hajar') && !/Reference: PAY-/.test(e))).toEqual([]);
  });

  test('privacy: the person found by email names both children; retention leaves no child name of the booking anywhere', async () => {
    const { payment, token } = await bookTwo(88, 2, 'privacy.two@example.com');
    // One child cancelled: the history names her.
    expect((await ctx.app.inject({ method: 'POST', url: `/api/booking/manage/${token}/cancel`, payload: { expectedRefundSen: 4500, child: 2 }, remoteAddress: '10.9.9.9' })).statusCode).toBe(200);
    const found = await findPerson(ctx.database.db, { email: 'privacy.two@example.com' });
    expect(found.summary.children.map((c) => c.name).sort()).toEqual(['Adam Firdaus', 'Siti Hajar']);

    const years = 20;
    await applyRetention(ctx.database.db, new Date(Date.now() + years * 365 * 86_400_000), { paidBookingYears: 1, unpaidOrCancelledMonths: 1, mailBodyDays: 1, waitlistDaysAfterEnd: 1 } as never);
    const children = await ctx.database.db.select().from(paymentChildren).where(eq(paymentChildren.paymentId, payment.id));
    expect(children.map((c) => [c.childName, c.childYear])).toEqual([['[anonymised]', ''], ['[anonymised]', '']]);
    expect((await ctx.database.db.select().from(bookingEvents).where(eq(bookingEvents.paymentId, payment.id))).every((e) => e.childName === null)).toBe(true);
    const seats = await ctx.database.db.select().from(slots).where(eq(slots.bookingReference, payment.reference));
    expect(seats.every((seat) => seat.childName === null)).toBe(true);
    expect((await paymentRow(ctx, payment.id)).childName).toBeNull();
  });
});
