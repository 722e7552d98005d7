// Issue 37: staff move ONE child of a booking of several to another time, the others staying at theirs. The child's
// seat moves through the checkout (seats counted in the database), the history, the audit trail and the parent's mail
// name the child, and every view (manage page, receipt, staff list, calendar feed) says where each child is.
import { and, asc, eq, sql } from 'drizzle-orm';
import { ErrorCode, inMY } from 'shared-api/contract';
import { slots } from '../../src/slots/tables';
import { paymentChildren } from '../../src/payments/tables';
import { auditLog } from '../../src/audit/record';
import { adminToken, auth, staffToken } from '../helpers';
import { initiateBody, initiateOk, markSandboxPaid, paymentRow, postSandboxCallback, startPaymentsApp, waitFor, type PayCtx } from '../payments/support';
import { bookPaid, eventsOf, mailsOf, manageGet, reschedule, tokenIn } from '../bookings/support';
import { renderVisitorChildMoved } from '../../src/mail/templates';
import { reminderTime, runReminders } from '../../src/manage/reminders';
import { findPerson } from '../../src/privacy/person';

jest.setTimeout(90_000);

const sister = { childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: 'Seri Ilmu Private Primary' };
const STAFF_EMAIL = 'staff@example.com';

describe('staff move one child of a booking of two (PGlite)', () => {
  let ctx: PayCtx;
  let staff: string;
  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
    staff = await staffToken(ctx as never);
    // A timetable of 50 more times: each network may hold a few seats for free (the hold limits are tested elsewhere).
    for (let hour = 0; hour < 50; hour++) await seatedTime(24 * 40 + hour, 1);
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

  /** Adam Firdaus (Secondary, RM 75) and Siti Hajar (Primary, RM 45) paid on a time of `seats` seats. */
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
    return { time, payment: p, token: tokenIn(confirmation.textBody), key: session.holdToken };
  }

  const move = (reference: string, slotId: number, child?: number) =>
    ctx.app.inject({ method: 'POST', url: `/staff/bookings/${reference}/move`, payload: { slotId, ...(child !== undefined && { child }) }, headers: auth(staff) });
  const childrenRows = (paymentId: string) => ctx.database.db.select().from(paymentChildren).where(eq(paymentChildren.paymentId, paymentId)).orderBy(asc(paymentChildren.position));
  const seatsAt = async (startAt: Date) => ctx.database.db.select().from(slots).where(eq(slots.startAt, startAt)).orderBy(asc(slots.seat));
  const freeAt = async (startAt: Date) => (await seatsAt(startAt)).filter((s) => s.status === 'available').length;
  const timeOf = (at: Date) => ({ date: inMY(at).format('YYYY-MM-DD'), startTime: inMY(at).format('HH:mm'), endTime: inMY(new Date(at.getTime() + 30 * 60_000)).format('HH:mm') });

  test("staff move Siti Hajar alone: her seat moves, Adam stays, and the staff view, manage page and receipt give her own time", async () => {
    const { time, payment, token, key } = await bookTwo(24 * 20, 3, 'move.child@example.com');
    const later = await seatedTime(24 * 21, 2);

    const moved = await move(payment.reference, later[0].id, 2);
    expect(moved.statusCode).toBe(200);
    expect(moved.json().message).toBe('Child moved.');
    const booking = moved.json().data;
    // The booking's time is still Adam's; Siti Hajar's own time is said beside her.
    expect(booking.start).toBe(time[0].startAt.toISOString());
    expect(booking.state).toBe('booked');
    expect(booking.children[0].time).toBeUndefined();
    expect(booking.children[1]).toMatchObject({ childName: 'Siti Hajar', cancelled: false, time: timeOf(later[0].startAt) });

    // Seats: one freed at the old time, one taken at the new time under the booking's reference, named for her.
    expect(await freeAt(time[0].startAt)).toBe(2);
    expect(await freeAt(later[0].startAt)).toBe(1);
    const [, siti] = await childrenRows(payment.id);
    const herSeat = (await seatsAt(later[0].startAt)).find((s) => s.id === siti.slotId)!;
    expect(herSeat).toMatchObject({ status: 'booked', bookingReference: payment.reference, childName: 'Siti Hajar' });
    expect((await paymentRow(ctx, payment.id)).slotId).toBe(time[0].id);

    // History and audit name the child.
    const events = await eventsOf(ctx, payment.id);
    expect(events.at(-1)).toMatchObject({ kind: 'rescheduled', actor: STAFF_EMAIL, childName: 'Siti Hajar', fromStart: time[0].startAt, toStart: later[0].startAt });
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.target, payment.reference), eq(auditLog.action, 'booking_moved_by_staff')));
    expect(audit).toHaveLength(1);
    expect(audit[0].detail).toMatchObject({ child: 2, childName: 'Siti Hajar', from: time[0].startAt.toISOString(), to: later[0].startAt.toISOString() });

    // The parent's mail names her and her new time; no calendar change (the booking's invitation stays).
    const mail = (await mailsOf(ctx, payment.id)).filter((m) => m.kind === 'visitor_rescheduled');
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe(`Siti Hajar's visit is moved: Seri Ilmu Private Primary, now ${inMY(later[0].startAt).format('dddd, D MMMM YYYY')} at ${inMY(later[0].startAt).format('h:mm A')} (GMT+8)`);
    expect(mail[0].textBody).toContain('The school has moved Siti Hajar');
    expect(mail[0].ics).toBeNull();
    expect((await mailsOf(ctx, payment.id)).filter((m) => m.kind === 'admin_rescheduled')[0].subject).toMatch(/^Child moved: Siti Hajar/);

    // The parent's page: the booking's time and refund terms unchanged, Siti Hajar's own time beside her.
    const view = (await manageGet(ctx, token)).json().data;
    expect(view.start).toBe(time[0].startAt.toISOString());
    expect(view.refundFrom).toBe(time[0].startAt.toISOString());
    expect(view.children.map((c: { time?: unknown }) => c.time)).toEqual([undefined, timeOf(later[0].startAt)]);
    // The receipt (the paying browser's status answer) says it too.
    const receipt = (await ctx.app.inject({ url: `/api/payment/status/${payment.id}`, headers: { 'x-payment-key': key } })).json().data;
    expect(receipt.booking.children[1].time).toEqual(timeOf(later[0].startAt));
    // The staff list (the CSV's source) too.
    const list = (await ctx.app.inject({ url: '/staff/bookings', headers: auth(staff) })).json().data.bookings as { reference: string; children?: { time?: unknown }[] }[];
    expect(list.find((b) => b.reference === payment.reference)!.children!.map((c) => c.time)).toEqual([undefined, timeOf(later[0].startAt)]);
  });

  test('the calendar feed has one event per time of the booking, each naming the children there', async () => {
    const { payment } = await bookTwo(24 * 22, 2, 'feed.child@example.com');
    const later = await seatedTime(24 * 23, 1);
    expect((await move(payment.reference, later[0].id, 1)).statusCode).toBe(200);
    const admin = await adminToken(ctx as never, { email: 'office.admin@example.com', password: 'another-correct-horse' });
    const feed = await ctx.app.inject({ method: 'POST', url: '/staff/calendar-feed', headers: auth(admin) });
    const url = new URL(feed.json().data.url as string);
    const ics = (await ctx.app.inject({ url: url.pathname, remoteAddress: '10.77.0.9' })).body.replace(/\r\n[ \t]/g, '');
    const events = ics.split('BEGIN:VEVENT').filter((e) => e.includes(`Reference: ${payment.reference}`));
    expect(events).toHaveLength(2);
    const summaries = events.map((e) => /SUMMARY:(.*)/.exec(e)![1].trim()).sort();
    expect(summaries).toEqual(['Assessment: Adam Firdaus\\, Form 1 (Seri Ilmu Private Secondary)', 'Assessment: Siti Hajar\\, Year 1 (Seri Ilmu Private Primary)']);
    expect(new Set(events.map((e) => /UID:(.*)/.exec(e)![1].trim())).size).toBe(2);
  });

  test('moving the child the payment points at keeps the booking at the time of the child who stays', async () => {
    const { time, payment } = await bookTwo(24 * 24, 2, 'move.first@example.com');
    const later = await seatedTime(24 * 25, 1);
    const moved = await move(payment.reference, later[0].id, 1);
    expect(moved.statusCode).toBe(200);
    const [adam, siti] = await childrenRows(payment.id);
    expect((await paymentRow(ctx, payment.id)).slotId).toBe(siti.slotId);
    expect(adam.slotId).toBe(later[0].id);
    expect(moved.json().data.start).toBe(time[0].startAt.toISOString());
    expect(moved.json().data.children.map((c: { time?: unknown }) => c.time)).toEqual([timeOf(later[0].startAt), undefined]);

    // Cancelling the moved child: the history and the mail give that child's own time.
    expect((await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${payment.reference}/cancel`, payload: { refund: false, child: 1 }, headers: auth(staff) })).statusCode).toBe(200);
    expect((await eventsOf(ctx, payment.id)).at(-1)).toMatchObject({ kind: 'child_cancelled', childName: 'Adam Firdaus', fromStart: later[0].startAt });
    const mail = (await mailsOf(ctx, payment.id)).find((m) => m.kind === 'visitor_cancelled')!;
    expect(mail.subject).toContain(inMY(later[0].startAt).format('dddd, D MMMM YYYY'));
    expect(await freeAt(later[0].startAt)).toBe(1);
  });

  test('refused clearly, nothing changed: an unknown or cancelled child, the same time, a full time, a booking of one child', async () => {
    const { time, payment } = await bookTwo(24 * 26, 3, 'refused.child@example.com');
    const before = await childrenRows(payment.id);
    const other = await seatedTime(24 * 27, 1);

    const unknown = await move(payment.reference, other[0].id, 4);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('This booking has no child at that place.');
    // Another seat of her own time is the same time.
    const same = await move(payment.reference, time[2].id, 2);
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('This is already your booking time. Please choose a different slot.');
    // A time whose one seat someone else holds: 409, her seat kept.
    await ctx.database.db.update(slots).set({ holdTokenHash: 'someone-else', holdExpiresAt: sql`now() + interval '10 minutes'` }).where(eq(slots.id, other[0].id));
    expect((await move(payment.reference, other[0].id, 2)).statusCode).toBe(409);
    expect(await childrenRows(payment.id)).toEqual(before);
    expect(await freeAt(time[0].startAt)).toBe(1);

    // A cancelled child cannot be moved.
    expect((await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${payment.reference}/cancel`, payload: { refund: false, child: 2 }, headers: auth(staff) })).statusCode).toBe(200);
    const free = await seatedTime(24 * 28, 1);
    const cancelled = await move(payment.reference, free[0].id, 2);
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().message).toBe('This booking is already cancelled.');

    // A booking of one child: the normal move.
    const one = await bookPaid(ctx, 24 * 29, 'one.child@example.com');
    const oneChild = await move(one.reference, free[0].id, 1);
    expect(oneChild.statusCode).toBe(400);
    expect(oneChild.json().error).toBe(ErrorCode.VALIDATION_ERROR);
    expect(oneChild.json().message).toBe('This booking is for one child: move the whole booking.');
  });

  test("the last child still booked moves as the booking; a parent's move afterwards takes every child to one time", async () => {
    const { payment, token } = await bookTwo(24 * 30, 3, 'regroup.child@example.com');
    const later = await seatedTime(24 * 31, 2);
    expect((await move(payment.reference, later[0].id, 2)).statusCode).toBe(200);
    // The parent moves the whole booking to Siti Hajar's time: she keeps her seat, Adam joins her.
    const regrouped = await reschedule(ctx, token, later[1].id);
    expect(regrouped.statusCode).toBe(200);
    expect(regrouped.json().data.start).toBe(later[0].startAt.toISOString());
    expect(regrouped.json().data.children.map((c: { time?: unknown }) => c.time)).toEqual([undefined, undefined]);
    expect(await freeAt(later[0].startAt)).toBe(0);
    const rows = await childrenRows(payment.id);
    expect(new Set((await seatsAt(later[0].startAt)).map((s) => s.id))).toEqual(new Set(rows.map((c) => c.slotId)));

    // One child cancelled, the other moved alone: the booking moves.
    expect((await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${payment.reference}/cancel`, payload: { refund: false, child: 1 }, headers: auth(staff) })).statusCode).toBe(200);
    const last = await seatedTime(24 * 32, 1);
    const alone = await move(payment.reference, last[0].id, 2);
    expect(alone.statusCode).toBe(200);
    expect(alone.json().data.start).toBe(last[0].startAt.toISOString());
    expect(alone.json().data.children[1].time).toBeUndefined();
  });

  test("a child at a time of their own is reminded of that time, the mail naming that child alone", async () => {
    const { payment } = await bookTwo(24 * 34, 2, 'remind.child@example.com');
    const later = await seatedTime(24 * 36, 1);
    expect((await move(payment.reference, later[0].id, 2)).statusCode).toBe(200);
    await runReminders(ctx.database.db, { now: reminderTime(later[0].startAt), publicSiteUrl: 'https://booking.example', mailFrom: 'Seri Ilmu <noreply@example.com>' });
    const reminders = (await mailsOf(ctx, payment.id)).filter((m) => m.kind === 'visitor_reminder' && m.messageId.includes(`reminder-${Math.floor(later[0].startAt.getTime() / 1000)}`));
    expect(reminders).toHaveLength(1);
    expect(reminders[0].textBody).toContain('Siti Hajar');
    expect(reminders[0].textBody).not.toContain('Adam Firdaus');
  });

  test("the privacy summary names each child of the booking once, a child elsewhere with their own time", async () => {
    const { payment } = await bookTwo(24 * 38, 2, 'privacy.child@example.com');
    const later = await seatedTime(24 * 39, 1);
    expect((await move(payment.reference, later[0].id, 2)).statusCode).toBe(200);
    const found = await findPerson(ctx.database.db, { email: 'privacy.child@example.com' });
    expect(found.summary.bookings).toHaveLength(1);
    expect(found.summary.bookings[0].childName).toBe(`Adam Firdaus, Siti Hajar (${inMY(later[0].startAt).format('D MMM YYYY, h:mm A')} GMT+8)`);
  });

  test('the mail says it in Malay and Chinese', () => {
    const at = new Date('2026-12-03T02:00:00Z');
    const input = {
      paymentId: 'p1',
      reference: 'PAY-1',
      amountSen: 12000,
      method: 'fpx',
      start: at,
      end: new Date(at.getTime() + 30 * 60_000),
      school: 'Seri Ilmu Private Secondary',
      visitorName: 'Aminah',
      visitorEmail: 'a@example.com',
      visitorContactNo: '+60123456789',
      childName: 'Adam Firdaus',
      childYear: 'Form 1',
      child: { position: 2, childName: 'Siti Hajar', childYear: 'Year 1', school: 'Seri Ilmu Private Primary', amountSen: 4500 },
      fromStart: new Date('2026-12-02T02:00:00Z'),
      fromEnd: new Date('2026-12-02T02:30:00Z'),
      by: STAFF_EMAIL,
      suffix: 'x',
    };
    expect(renderVisitorChildMoved({ ...input, locale: 'ms' }).subject).toMatch(/^Lawatan Siti Hajar ditukar: Sekolah Rendah Swasta Seri Ilmu, kini Khamis, 3 Disember 2026 pukul 10:00 pagi/);
    expect(renderVisitorChildMoved({ ...input, locale: 'zh' }).text).toContain('学校已将Siti Hajar的入学评估改期至');
  });
});
