jest.setTimeout(60_000);
import { eq, sql } from 'drizzle-orm';
import { bookingChanges, ErrorCode, formatInMY, formatRM, ManageErrorCode, ManageMessage, MANAGE_TOKEN_PATTERN, PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { slots } from '../../src/slots/tables';
import { MAX_BROWSER_TOKENS } from '../../src/bookings/tokens';
import { MANAGE_GUESS_LIMIT } from '../../src/manage/service';
import { payments } from '../../src/payments/tables';
import { sandboxSessions } from '../../src/payments/gateways/tables';
import { initiateBody, initiateOk, insertSlot, paymentRow, publicIds, slotRow, startPaymentsApp, type PayCtx } from '../payments/support';
import { bookPaid, cancel, eventsOf, icsValue, mailsOf, manageGet, mintLink, reschedule, tokenIn } from './support';

// Visits well before the refund tier (48 h) and the cut-off (24 h) start from 60 h; late ones sit inside them.
let early = 60;
const nextEarly = () => (early += 1);

describe('manage link: view, reschedule, cancel (PGlite)', () => {
  let ctx: PayCtx;
  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('the confirmation mail carries a manage link and the cut-off; the link shows the booking, changeable, with a full refund quote', async () => {
    const b = await bookPaid(ctx, nextEarly(), 'view1@example.com');
    const confirmation = (await mailsOf(ctx, b.paymentId)).find((m) => m.kind === 'visitor_confirmation')!;
    expect(confirmation.textBody).toContain(`To change or cancel your booking, use this link: http://site.test/booking/manage/${b.token}`);
    const slot = await slotRow(ctx, b.slotId);
    const at = (hoursBefore: number) => new Date(slot.startAt.getTime() - hoursBefore * 3_600_000);
    // The terms in plain words: refund and change deadlines of this visit (refund tier 48 h, cut-off 24 h).
    expect(confirmation.textBody).toContain(
      `Full refund if you cancel by ${formatInMY(at(48), 'longDate')}, ${formatInMY(at(48), 'time')} (GMT+8); after that no refund; changes until ${formatInMY(at(bookingChanges.cutoffHours), 'longDate')}`,
    );
    expect(confirmation.htmlBody).toContain(`href="http://site.test/booking/manage/${b.token}"`);
    expect(icsValue(confirmation.ics!, 'SEQUENCE')).toBe('0');
    const admin = (await mailsOf(ctx, b.paymentId)).find((m) => m.kind === 'admin_notification')!;
    expect(admin.textBody).not.toContain('/booking/manage/');

    const res = await manageGet(ctx, b.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().data).toEqual({
      reference: b.reference,
      school: 'Seri Ilmu Private Secondary',
      start: slot.startAt.toISOString(),
      end: slot.endAt.toISOString(),
      amountPaidSen: 7500,
      state: 'booked',
      refund: null,
      refundFrom: slot.startAt.toISOString(),
      terms: { refunds: [{ percent: 100, until: at(48).toISOString() }], changesUntil: at(bookingChanges.cutoffHours).toISOString(), now: expect.any(String) },
      changeDeadline: new Date(slot.startAt.getTime() - bookingChanges.cutoffHours * 3_600_000).toISOString(),
      canChange: true,
      cancelQuote: { percent: 100, amountSen: 7500 },
      calendarSequence: 0,
      // The child the parent booked for (the booking form's, through the payment).
      childName: 'Adam Firdaus',
      childYear: 'Form 1',
      // The WhatsApp box was not ticked (issue 38): nothing to stop on the page.
      whatsapp: null,
    });
    expect((await paymentRow(ctx, b.paymentId)).bookingStatus).toBe('booked');
    expect((await eventsOf(ctx, b.paymentId)).map((e) => [e.kind, e.actor])).toEqual([['booked', 'parent']]);
  });

  it('a malformed or unknown token answers 404 with no booking data; a visit that is over answers 410', async () => {
    const b = await bookPaid(ctx, nextEarly(), 'view2@example.com');
    for (const token of ['short', 'x'.repeat(43), b.token.slice(0, 42) + (b.token.endsWith('A') ? 'B' : 'A'), `${b.token}x`]) {
      const res = await manageGet(ctx, token, '10.50.0.1');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, data: null, message: ManageMessage.invalidLink, error: ManageErrorCode.MANAGE_LINK_INVALID });
    }
    // The visit took place: the slot's end is in the past.
    await ctx.database.db
      .update(slots)
      .set({ startAt: sql`now() - interval '2 hours'`, endAt: sql`now() - interval '90 minutes'` })
      .where(eq(slots.id, b.slotId));
    const over = await manageGet(ctx, b.token);
    expect(over.statusCode).toBe(410);
    expect(over.json()).toEqual({ success: false, data: null, message: ManageMessage.expiredLink, error: ManageErrorCode.MANAGE_LINK_EXPIRED });
    expect((await reschedule(ctx, b.token, (await insertSlot(ctx.database, nextEarly())).id)).statusCode).toBe(410);
    expect((await cancel(ctx, b.token, 0)).statusCode).toBe(410);
    expect((await mintLink(ctx, b.paymentId, b.key)).statusCode).toBe(410);
  });

  it('guessing is braked per address: past the limit unknown tokens get 429, while a good token still works there', async () => {
    const b = await bookPaid(ctx, nextEarly(), 'view3@example.com');
    const guesser = '10.60.0.7';
    for (let i = 0; i < MANAGE_GUESS_LIMIT.limit; i++) {
      const res = await manageGet(ctx, `${'a'.repeat(40)}${String(i).padStart(3, '0')}`, guesser);
      expect(res.statusCode).toBe(404);
    }
    const refused = await manageGet(ctx, `${'a'.repeat(40)}zzz`, guesser);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ success: false, data: null, message: ManageMessage.tooManyTries, error: ErrorCode.RATE_LIMITED });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The parent sharing the guesser's address (school Wi-Fi, carrier NAT) still sees and changes their booking.
    expect((await manageGet(ctx, b.token, guesser)).statusCode).toBe(200);
    expect((await cancel(ctx, b.token, 7500, guesser)).statusCode).toBe(200);
    expect((await paymentRow(ctx, b.paymentId)).bookingStatus).toBe('cancelled');
    expect((await manageGet(ctx, `${'a'.repeat(40)}zzz`, '10.60.0.8')).statusCode).toBe(404);
  });

  it('the paying browser mints its own links, up to the cap; unknown or unpaid payments get none', async () => {
    const b = await bookPaid(ctx, nextEarly(), 'link1@example.com');
    const tokens = new Set<string>();
    for (let i = 0; i < MAX_BROWSER_TOKENS; i++) {
      const res = await mintLink(ctx, b.paymentId, b.key, 'link1@example.com');
      expect(res.statusCode).toBe(200);
      const { token, path } = res.json().data;
      expect(token).toMatch(MANAGE_TOKEN_PATTERN);
      expect(path).toBe(`/booking/manage/${token}`);
      tokens.add(token);
    }
    expect(tokens.size).toBe(MAX_BROWSER_TOKENS);
    expect((await manageGet(ctx, [...tokens][0])).json().data.reference).toBe(b.reference);
    const capped = await mintLink(ctx, b.paymentId, b.key, 'link1@example.com');
    expect(capped.statusCode).toBe(429);
    expect(capped.json().data).toBeNull();
    // The mail's link still works.
    expect((await manageGet(ctx, b.token)).statusCode).toBe(200);

    expect((await mintLink(ctx, 'pay_does_not_exist', b.key)).statusCode).toBe(404);
    // The payment id alone (it is in URLs) or with another key gets nothing.
    for (const key of [undefined, '', 'x'.repeat(43), `${b.key}x`]) {
      const refused = await mintLink(ctx, b.paymentId, key, 'link1@example.com');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ success: false, data: null, message: ManageMessage.notYours, error: ErrorCode.FORBIDDEN });
    }
    const slot = await insertSlot(ctx.database, nextEarly());
    const { session } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'link2@example.com' }));
    const unpaid = await mintLink(ctx, session.id, session.holdToken, 'link2@example.com');
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json()).toMatchObject({ data: null, message: ManageMessage.notPaid });
  });

  it('reschedules: the new slot is taken, the old one is public again, mails carry the same UID with SEQUENCE 1 and a new link', async () => {
    const b = await bookPaid(ctx, nextEarly(), 'move1@example.com');
    const target = await insertSlot(ctx.database, nextEarly());
    const res = await reschedule(ctx, b.token, target.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: ManageMessage.rescheduled, data: { state: 'booked', start: target.startAt.toISOString(), canChange: true } });

    expect(await slotRow(ctx, target.id)).toMatchObject({ status: 'booked', bookingReference: b.reference, visitorEmail: 'move1@example.com', amountSen: 7500 });
    expect(await slotRow(ctx, b.slotId)).toMatchObject({ status: 'available', bookingReference: null, visitorName: null, visitorEmail: null, amountSen: null, bookedAt: null });
    const listed = await publicIds(ctx);
    expect(listed).toContain(b.slotId);
    expect(listed).not.toContain(target.id);
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({ slotId: target.id, calendarSequence: 1, bookingStatus: 'booked', status: 'completed' });

    const mails = await mailsOf(ctx, b.paymentId);
    const confirmation = mails.find((m) => m.kind === 'visitor_confirmation')!;
    const moved = mails.find((m) => m.kind === 'visitor_rescheduled')!;
    expect(mails.filter((m) => m.kind === 'admin_rescheduled')).toHaveLength(1);
    expect(icsValue(moved.ics!, 'UID')).toBe(icsValue(confirmation.ics!, 'UID'));
    expect(icsValue(moved.ics!, 'SEQUENCE')).toBe('1');
    expect(icsValue(moved.ics!, 'METHOD')).toBe('REQUEST');
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(mails.length);
    expect(moved.messageId).toMatch(new RegExp(`^<${b.reference}\\.visitor-rescheduled-1@`));
    const newToken = tokenIn(moved.textBody);
    expect(newToken).not.toBe(b.token);
    // Both links open the moved booking.
    expect((await manageGet(ctx, newToken)).json().data.start).toBe(target.startAt.toISOString());
    expect((await manageGet(ctx, b.token)).json().data.start).toBe(target.startAt.toISOString());
    const events = await eventsOf(ctx, b.paymentId);
    expect(events.map((e) => e.kind)).toEqual(['booked', 'rescheduled']);
    expect(events[1]).toMatchObject({ actor: 'parent', fromStart: (await slotRow(ctx, b.slotId)).startAt, toStart: target.startAt });

    // A second move: SEQUENCE 2, its own Message-ID.
    const third = await insertSlot(ctx.database, nextEarly());
    expect((await reschedule(ctx, newToken, third.id)).statusCode).toBe(200);
    const again = (await mailsOf(ctx, b.paymentId)).filter((m) => m.kind === 'visitor_rescheduled');
    expect(again.map((m) => icsValue(m.ics!, 'SEQUENCE'))).toEqual(['1', '2']);
    expect(await slotRow(ctx, target.id)).toMatchObject({ status: 'available', bookingReference: null });
  });

  it('refuses the same slot (400), a taken or held slot (409, nothing changes) and a slot inside the lead time', async () => {
    const b = await bookPaid(ctx, nextEarly(), 'move2@example.com');
    const other = await bookPaid(ctx, nextEarly(), 'move3@example.com');
    const same = await reschedule(ctx, b.token, b.slotId);
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(ManageMessage.sameSlot);
    expect(same.json().reason).toEqual({ rule: 'sameSlot' });

    const taken = await reschedule(ctx, b.token, other.slotId);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ data: null, message: ManageMessage.slotTaken, error: ErrorCode.SLOT_NOT_AVAILABLE });
    expect(await slotRow(ctx, b.slotId)).toMatchObject({ status: 'booked', bookingReference: b.reference });
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({ slotId: b.slotId, calendarSequence: 0 });
    expect((await mailsOf(ctx, b.paymentId)).map((m) => m.kind).sort()).toEqual(['admin_notification', 'visitor_confirmation']);

    const held = await insertSlot(ctx.database, nextEarly());
    await initiateOk(ctx, initiateBody(held, { visitorEmail: 'holder@example.com' }));
    const heldRes = await reschedule(ctx, b.token, held.id);
    expect(heldRes.statusCode).toBe(409);
    expect(heldRes.json()).toMatchObject({ message: ManageMessage.slotTaken, error: ErrorCode.SLOT_RESERVED });

    const soon = await insertSlot(ctx.database, 0.5);
    expect((await reschedule(ctx, b.token, soon.id)).statusCode).toBe(409);
    expect((await reschedule(ctx, b.token, 999_999)).statusCode).toBe(404);
    expect(await slotRow(ctx, b.slotId)).toMatchObject({ status: 'booked', bookingReference: b.reference });
    expect((await eventsOf(ctx, b.paymentId)).map((e) => e.kind)).toEqual(['booked']);
  });

  it('inside the cut-off nothing can be changed online: no quote, reschedule and cancel refused with the words for it', async () => {
    const b = await bookPaid(ctx, 10, 'late1@example.com');
    const view = (await manageGet(ctx, b.token)).json().data;
    expect(view).toMatchObject({ state: 'booked', canChange: false, cancelQuote: null });
    const moved = await reschedule(ctx, b.token, (await insertSlot(ctx.database, nextEarly())).id);
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toMatchObject({ message: ManageMessage.tooLate, error: ManageErrorCode.CHANGE_CLOSED });
    const cancelled = await cancel(ctx, b.token, 0);
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json()).toMatchObject({ message: ManageMessage.tooLate, error: ManageErrorCode.CHANGE_CLOSED });
    expect(await slotRow(ctx, b.slotId)).toMatchObject({ status: 'booked', bookingReference: b.reference });
  });

  it('cancels with a full refund: sandbox refunds, the slot is public at once, mails with METHOD:CANCEL and the amount', async () => {
    const b = await bookPaid(ctx, nextEarly(), 'cancel1@example.com');
    const res = await cancel(ctx, b.token, 7500);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: ManageMessage.cancelledNow,
      data: { state: 'cancelled', canChange: false, cancelQuote: null, refund: { amountSen: 7500, state: 'refunded' } },
    });
    expect(await slotRow(ctx, b.slotId)).toMatchObject({ status: 'available', bookingReference: null, visitorEmail: null });
    expect(await publicIds(ctx)).toContain(b.slotId);
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({
      bookingStatus: 'cancelled',
      cancelledBy: 'parent',
      status: 'refunded',
      refundAmountSen: 7500,
      calendarSequence: 1,
    });
    const [session] = await ctx.database.db.select().from(sandboxSessions).where(eq(sandboxSessions.id, b.sandboxId));
    expect(session.status).toBe('refunded');

    const mails = await mailsOf(ctx, b.paymentId);
    const confirmation = mails.find((m) => m.kind === 'visitor_confirmation')!;
    const visitorMail = mails.find((m) => m.kind === 'visitor_cancelled')!;
    expect(mails.filter((m) => m.kind === 'admin_cancelled')).toHaveLength(1);
    expect(icsValue(visitorMail.ics!, 'METHOD')).toBe('CANCEL');
    expect(icsValue(visitorMail.ics!, 'STATUS')).toBe('CANCELLED');
    expect(icsValue(visitorMail.ics!, 'UID')).toBe(icsValue(confirmation.ics!, 'UID'));
    expect(icsValue(visitorMail.ics!, 'SEQUENCE')).toBe('1');
    expect(visitorMail.textBody).toContain(`A refund of ${formatRM(7500)} is being issued`);
    expect((await eventsOf(ctx, b.paymentId)).map((e) => [e.kind, e.actor, e.amountSen])).toEqual([
      ['booked', 'parent', 7500],
      ['cancelled', 'parent', null],
      ['refund_requested', 'parent', 7500],
      ['refunded', 'system', 7500],
    ]);

    // Afterwards the link says cancelled and offers nothing; the payment status does not claim the slot was taken.
    const after = await manageGet(ctx, b.token);
    expect(after.json()).toMatchObject({ message: ManageMessage.cancelled, data: { state: 'cancelled', refund: { state: 'refunded' } } });
    const again = await cancel(ctx, b.token, 7500);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: ManageMessage.cancelled, error: ManageErrorCode.CHANGE_CLOSED });
    expect((await reschedule(ctx, b.token, (await insertSlot(ctx.database, nextEarly())).id)).statusCode).toBe(409);
    const status = (await ctx.app.inject({ url: `/api/payment/status/${b.paymentId}`, headers: { [PAYMENT_KEY_HEADER]: b.key } })).json();
    expect(status.message).toBe(`This booking has been cancelled. A refund of ${formatRM(7500)} has been issued.`);
    expect(status.message).not.toMatch(/no longer available/);
    expect(status.data.booking.confirmed).toBe(false);
    expect((await mintLink(ctx, b.paymentId, b.key)).statusCode).toBe(409);
  });

  it('a cancel whose refund differs from the current quote is refused (QUOTE_CHANGED); inside the no-refund tier nothing is refunded', async () => {
    // 30 h ahead: before the cut-off (24 h), after the full-refund tier (48 h).
    const b = await bookPaid(ctx, 30, 'cancel2@example.com');
    expect((await manageGet(ctx, b.token)).json().data.cancelQuote).toEqual({ percent: 0, amountSen: 0 });
    const stale = await cancel(ctx, b.token, 7500);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ data: null, message: ManageMessage.quoteChanged, error: ManageErrorCode.QUOTE_CHANGED });
    expect(await slotRow(ctx, b.slotId)).toMatchObject({ status: 'booked' });

    const res = await cancel(ctx, b.token, 0);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ state: 'cancelled', refund: null });
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({ status: 'completed', bookingStatus: 'cancelled', refundAmountSen: null });
    const visitorMail = (await mailsOf(ctx, b.paymentId)).find((m) => m.kind === 'visitor_cancelled')!;
    expect(visitorMail.textBody).toContain('No refund applies under the cancellation policy.');
    expect((await eventsOf(ctx, b.paymentId)).map((e) => e.kind)).toEqual(['booked', 'cancelled']);
    expect((await ctx.app.inject(`/api/payment/status/${b.paymentId}`)).json().message).toBe(ManageMessage.cancelled);
    expect(await publicIds(ctx)).toContain(b.slotId);

    // The paid-for slot cannot be confirmed again through the old payment-confirmation route.
    const p = await paymentRow(ctx, b.paymentId);
    const reconfirm = await ctx.app.inject({
      method: 'PUT',
      url: `/slot/${b.slotId}`,
      payload: {
        visitorName: p.visitorName,
        visitorEmail: p.visitorEmail,
        visitorContactNo: p.visitorContactNo,
        selectedSchool: p.selectedSchool,
        childName: p.childName,
        childYear: p.childYear,
        paymentId: p.id,
      },
    });
    expect(reconfirm.statusCode).toBe(402);
    expect((await ctx.database.db.select().from(payments).where(eq(payments.id, b.paymentId)))[0].bookingStatus).toBe('cancelled');
  });
});
