jest.setTimeout(60_000);
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { BookingMessage, ErrorCode, PAYMENT_KEY_HEADER, PaymentFailureCode, ValidationMessage } from 'shared-api/contract';
import { slots } from '../../src/slots/tables';
import { paymentEvents } from '../../src/payments/tables';
import { sandboxSessions } from '../../src/payments/gateways/tables';
import { bookSlotRow as bookSlot } from '../../src/checkout/hold-rows';
import { toPublicSlot } from '../../src/slots/present';
import {
  expireHold,
  initiate,
  initiateBody,
  initiateOk,
  insertSlot,
  markSandboxPaid,
  outboxFor,
  parentOf,
  paymentRow,
  postSandboxCallback,
  publicIds,
  reserve,
  slotRow,
  startPaymentsApp,
  visitor,
  waitFor,
  type Driver,
  type PayCtx,
} from './support';
import { insertConsent } from '../helpers';

const drivers: Driver[] = ['pglite', 'postgres'];

describe.each(drivers)('payments on %s', (driver) => {
  let ctx: PayCtx;
  beforeAll(async () => {
    // Callbacks are dropped by default here: each test sends them itself, in the order it wants.
    ctx = await startPaymentsApp(driver, { sandboxCallbackDrop: true });
  });
  afterAll(() => ctx?.close());

  /** The status answer as a browser asks: with the payment's key (the paying browser) or without (anyone else). */
  const withKey = (key?: string) => (key === undefined ? {} : { [PAYMENT_KEY_HEADER]: key });
  const status = async (id: string, key?: string) => (await ctx.app.inject({ url: `/api/payment/status/${id}`, headers: withKey(key) })).json();
  const statusByRef = async (ref: string, key?: string) => (await ctx.app.inject({ url: `/api/payment/status/reference/${ref}`, headers: withKey(key) })).json();
  const cancelPayment = (id: string, key?: string) => ctx.app.inject({ method: 'POST', url: `/api/payment/${id}/cancel`, headers: withKey(key) });

  describe('pricing, methods and health', () => {
    it('GET /api/payment/pricing lists every school in sen from the brand configuration; one school by name; unknown → 404', async () => {
      const all = (await ctx.app.inject('/api/payment/pricing')).json();
      expect(all.data.pricing).toEqual([
        { schoolName: 'Seri Ilmu Private Primary', totalFee: 5000 },
        { schoolName: 'Seri Ilmu Private Secondary', totalFee: 7500 },
        { schoolName: 'Seri Ilmu International', totalFee: 10000 },
      ]);
      const one = (await ctx.app.inject(`/api/payment/pricing/${encodeURIComponent('Seri Ilmu International')}`)).json();
      expect(one.data.pricing).toEqual([{ schoolName: 'Seri Ilmu International', totalFee: 10000 }]);
      const unknown = await ctx.app.inject('/api/payment/pricing/Nowhere');
      expect(unknown.statusCode).toBe(404);
    });

    it('GET /api/payment/methods?currency=MYR: fpx (default), card, ewallet, duitnow_qr; another currency is refused', async () => {
      const res = (await ctx.app.inject('/api/payment/methods?currency=MYR')).json();
      expect(res.data.methods.map((m: { id: string }) => m.id)).toEqual(['fpx', 'card', 'ewallet', 'duitnow_qr']);
      expect(res.data.methods.filter((m: { default: boolean }) => m.default).map((m: { id: string }) => m.id)).toEqual(['fpx']);
      expect((await ctx.app.inject('/api/payment/methods?currency=USD')).statusCode).toBe(400);
    });

    it('GET /api/payment/health says healthy while the sandbox gateway answers', async () => {
      const res = await ctx.app.inject('/api/payment/health');
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ status: 'healthy', gateway: 'sandbox', message: 'Payment service is healthy' });
    });

    it('unknown payment ids and references answer PAYMENT_NOT_FOUND', async () => {
      const res = await ctx.app.inject('/api/payment/status/pay_nope');
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(ErrorCode.PAYMENT_NOT_FOUND);
      expect((await ctx.app.inject('/api/payment/status/reference/PAY-NOPE')).statusCode).toBe(404);
    });
  });

  describe('POST /api/payment/initiate', () => {
    it('refuses bad visitor details with the booking form words and changes nothing', async () => {
      const slot = await insertSlot(ctx.database, 30);
      const res = await initiate(ctx, initiateBody(slot, { visitorName: ' A ' }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: ErrorCode.VALIDATION_ERROR, message: ValidationMessage.nameTooShort });
      const phone = await initiate(ctx, initiateBody(slot, { visitorContactNo: '12-34' }));
      expect(phone.json().message).toBe(ValidationMessage.phoneInvalid);
      expect((await slotRow(ctx, slot.id)).holdExpiresAt).toBeNull();
    });

    it('charges the school’s own fee for the slot’s own time, whatever fee, date and time were sent, and answers them; no price for an unknown school', async () => {
      const slot = await insertSlot(ctx.database, 31);
      const school = await initiate(ctx, initiateBody(slot, { selectedSchool: 'Hogwarts' }));
      expect([school.statusCode, school.json().error, school.json().message]).toEqual([400, ErrorCode.VALIDATION_ERROR, ValidationMessage.schoolRequired]);
      expect((await slotRow(ctx, slot.id)).holdExpiresAt).toBeNull();
      const res = await initiate(ctx, initiateBody(slot, { fee: 5000, slotDate: '2020-01-01', slotStartTime: '3:00 AM' }));
      expect(res.statusCode).toBe(200);
      const expected = toPublicSlot(await slotRow(ctx, slot.id));
      expect(res.json().data.paymentSession).toMatchObject({ fee: 7500, slotDate: expected.date, slotStartTime: expected.startTime });
      expect((await paymentRow(ctx, res.json().data.paymentSession.id)).amountSen).toBe(7500);
      // A client that sends none of them pays the same.
      const { fee: _fee, slotDate: _date, slotStartTime: _time, ...bare } = initiateBody(slot);
      const other = await insertSlot(ctx.database, 48);
      const plain = await initiate(ctx, { ...bare, slotId: other.id, visitorEmail: 'plain@example.com', visitorContactNo: '0198765432' });
      expect([plain.statusCode, plain.json().data?.paymentSession.fee]).toEqual([200, 7500]);
      // Both holds given back: the next tests start from a network holding nothing.
      for (const [slotId, answer] of [[slot.id, res], [other.id, plain]] as const)
        await ctx.app.inject({ method: 'POST', url: `/slot/${slotId}/release`, payload: { token: answer.json().data.paymentSession.holdToken } });
    });

    it('holds the slot 15 minutes, creates a pending payment and a checkout session; a repeat without the hold token is SLOT_RESERVED', async () => {
      const slot = await insertSlot(ctx.database, 32);
      const res = await initiate(ctx, initiateBody(slot));
      expect(res.statusCode).toBe(200);
      const session = res.json().data.paymentSession;
      expect(session).toEqual({
        id: expect.stringMatching(/^pay_/),
        paymentId: session.id,
        checkoutUrl: `${ctx.baseUrl}/sandbox-gateway/checkout/${(await paymentRow(ctx, session.id)).gatewaySessionId}`,
        clientReference: expect.stringMatching(/^PAY-/),
        expiresAt: expect.any(String),
        holdToken: expect.any(String),
        fee: 7500,
        slotDate: toPublicSlot(await slotRow(ctx, slot.id)).date,
        slotStartTime: toPublicSlot(await slotRow(ctx, slot.id)).startTime,
      });
      // Without a hold token of its own the caller gets the one initiate took: the payment's key.
      expect((await slotRow(ctx, slot.id)).holdTokenHash).toBe(createHash('sha256').update(session.holdToken).digest('hex'));
      const minutes = (Date.parse(session.expiresAt) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(14);
      expect(minutes).toBeLessThanOrEqual(15.1);
      expect(await publicIds(ctx)).not.toContain(slot.id);
      expect((await paymentRow(ctx, session.id)).status).toBe('pending');

      // Knowing the email proves nothing: without the hold token the slot is simply held by someone else.
      const again = await initiate(ctx, initiateBody(slot));
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: ErrorCode.SLOT_RESERVED, message: BookingMessage.slotReserved });
      expect((await paymentRow(ctx, session.id)).status).toBe('pending');

      const other = await initiate(ctx, initiateBody(slot, { visitorEmail: 'someone@example.com' }));
      expect(other.statusCode).toBe(409);
      expect(other.json()).toMatchObject({ error: ErrorCode.SLOT_RESERVED, message: BookingMessage.slotReserved });
    });

    it('with its hold token: a repeat returns the same session; changed details or a session about to end replace it, the hold carried over', async () => {
      const slot = await insertSlot(ctx.database, 52);
      const holdToken = await reserve(ctx, slot.id, 'change@example.com');
      const first = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'change@example.com', holdToken }));
      const repeat = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'change@example.com', holdToken }));
      expect(repeat.session).toEqual(first.session);
      const changedBody = initiateBody(slot, { visitorEmail: 'change@example.com', selectedSchool: 'Seri Ilmu International', childYear: 'Year 9', fee: 10000, holdToken });
      const changed = await initiateOk(ctx, changedBody);
      expect(changed.session.id).not.toBe(first.session.id);
      expect((await paymentRow(ctx, first.session.id)).status).toBe('cancelled');
      expect(changed.payment.holdToken).toBe(first.payment.holdToken);
      expect(changed.payment.amountSen).toBe(10000);
      // 30 s left on the session: a new one is started rather than handing out one about to end.
      await ctx.database.db.execute(sql`UPDATE payments SET session_expires_at = now() + interval '30 seconds' WHERE id = ${changed.session.id}`);
      const renewed = await initiateOk(ctx, changedBody);
      expect(renewed.session.id).not.toBe(changed.session.id);
      expect((await paymentRow(ctx, changed.session.id)).status).toBe('cancelled');
      expect(Date.parse(renewed.session.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    });

    it('accepts the hold token from POST /slot/{id}/reserve and answers SLOT_NOT_AVAILABLE for a booked slot', async () => {
      const slot = await insertSlot(ctx.database, 33);
      const hold = (await ctx.app.inject({ method: 'POST', url: `/slot/${slot.id}/reserve`, payload: { minutes: 5 } })).json().data;
      const res = await initiate(ctx, initiateBody(slot, { visitorEmail: 'token@example.com', holdToken: hold.token }));
      expect(res.statusCode).toBe(200);
      const row = await paymentRow(ctx, res.json().data.paymentSession.id);
      expect(row.holdToken).toBe(hold.token);
      expect(row.sessionExpiresAt.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);

      const booked = await insertSlot(ctx.database, 34);
      await bookSlot(ctx.database.db, { consentId: await insertConsent(ctx.database.db), slotId: booked.id, visitor: { ...visitor, visitorContactNo: '0123456789' } });
      const refused = await initiate(ctx, initiateBody(booked));
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ error: ErrorCode.SLOT_NOT_AVAILABLE, message: BookingMessage.slotNotAvailable });
    });
  });

  describe('sandbox checkout page', () => {
    it('shows the amount in RM, the school, the reference, the four methods and the three buttons', async () => {
      const slot = await insertSlot(ctx.database, 35);
      const { session } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'page@example.com' }));
      const page = await fetch(session.checkoutUrl);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('RM 75');
      expect(html).toContain('Seri Ilmu Private Secondary');
      expect(html).toContain(session.clientReference);
      for (const label of ['FPX online banking', 'Credit / debit card', 'E-wallet', 'DuitNow QR']) expect(html).toContain(label);
      expect(html).toMatch(/value="pay"/);
      expect(html).toMatch(/value="fail"/);
      expect(html).toMatch(/value="cancel"/);
    });
  });

  describe('callback', () => {
    it('books the slot from the callback alone (before any browser return), once, with both mails queued', async () => {
      const slot = await insertSlot(ctx.database, 36);
      const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'first@example.com' }));
      await markSandboxPaid(ctx, sandboxId);
      // The worker would send the mails as soon as the booking commits (on a fast database before the status call
      // below): stopped, they stay queued and the receipt's emailStatus is 'pending' every time.
      await ctx.app.jobs.stopWorking('mail');
      const res = await postSandboxCallback(ctx, { session_id: sandboxId, reference: session.clientReference, status: 'paid', amount: 7500 });
      expect(res.status).toBe(200);
      expect((await res.json()).data).toEqual({ received: true, applied: true, duplicate: false });
      const booked = await slotRow(ctx, slot.id);
      expect(booked).toMatchObject({ status: 'booked', bookingReference: session.clientReference, amountSen: 7500, visitorEmail: 'first@example.com' });
      expect((await outboxFor(ctx, session.id)).map((m) => m.kind).sort()).toEqual(['admin_notification', 'visitor_confirmation']);

      // The browser returns afterwards with the payment's key: the status by reference says booked, with the whole receipt.
      const body = await statusByRef(session.clientReference, session.holdToken);
      expect(body.message).toBe(BookingMessage.paymentSuccess);
      expect(body.data.owner).toBe(true);
      expect(body.data.payment).toMatchObject({ id: session.id, status: 'completed', amount: 7500, reference: session.clientReference });
      expect(body.data.booking).toMatchObject({ confirmed: true, slotId: slot.id, selectedSchool: visitor.selectedSchool, visitorEmail: 'first@example.com' });
      expect(body.data.emailStatus).toBe('pending');
      expect(body.data.emailTimeouts).toEqual({ visitorEmailTimeout: false, adminEmailTimeout: false });
      await ctx.app.jobs.startWorking('mail');

      // Anyone else with the reference (a mail, a screenshot, the success URL): what the receipt says, nothing personal.
      const start = new Date(slot.startAt.getTime() + 8 * 3_600_000).toISOString();
      const end = new Date(slot.endAt.getTime() + 8 * 3_600_000).toISOString();
      const stranger = await statusByRef(session.clientReference);
      expect(stranger).toEqual({
        success: true,
        message: BookingMessage.paymentSuccess,
        data: {
          owner: false,
          payment: { status: 'completed', amount: 7500, reference: session.clientReference },
          booking: { confirmed: true, date: start.slice(0, 10), startTime: start.slice(11, 16), endTime: end.slice(11, 16), selectedSchool: visitor.selectedSchool, calendarSequence: 0 },
        },
      });
      expect(await status(session.id, 'not-the-key')).toEqual(stranger);
    });

    it('browser first (still pending), then the callback completes it', async () => {
      const slot = await insertSlot(ctx.database, 37);
      const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'browser@example.com' }));
      expect((await status(session.id)).data.payment.status).toBe('pending');
      await markSandboxPaid(ctx, sandboxId);
      await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
      const body = await status(session.id);
      expect(body.data.payment.status).toBe('completed');
      expect(body.data.booking.confirmed).toBe(true);
    });

    it('without any callback: the status route asks the gateway and finishes the payment', async () => {
      const slot = await insertSlot(ctx.database, 38);
      const { session } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'nocallback@example.com' }));
      // The real Pay button on the sandbox page (callbacks are dropped in this app).
      const pay = await fetch(`${session.checkoutUrl}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'action=pay&method=duitnow_qr',
        redirect: 'manual',
      });
      expect(pay.status).toBe(303);
      expect(pay.headers.get('location')).toBe(`http://site.test/payment/success?reference=${session.clientReference}`);
      expect((await slotRow(ctx, slot.id)).status).toBe('available');
      const body = await statusByRef(session.clientReference, session.holdToken);
      expect(body.data.payment).toMatchObject({ status: 'completed', method: 'duitnow_qr' });
      expect((await slotRow(ctx, slot.id)).status).toBe('booked');
    });

    it('acknowledges a replayed event and ignores it; a second event for the same payment books nothing twice', async () => {
      const slot = await insertSlot(ctx.database, 39);
      const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'twice@example.com' }));
      await markSandboxPaid(ctx, sandboxId);
      const first = await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' }, { eventId: 'evt_same' });
      const replay = await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' }, { eventId: 'evt_same' });
      const other = await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' }, { eventId: 'evt_other' });
      expect((await first.json()).data.applied).toBe(true);
      expect(replay.status).toBe(200);
      expect((await replay.json()).data).toEqual({ received: true, applied: false, duplicate: true });
      expect(other.status).toBe(200);
      expect(await outboxFor(ctx, session.id)).toHaveLength(2);
      const events = await ctx.database.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, session.id));
      expect(events.map((e) => e.eventId).sort()).toEqual(['evt_other', 'evt_same']);
      expect((await paymentRow(ctx, session.id)).status).toBe('completed');
    });

    it('refuses a bad or stale signature with 401 and changes nothing', async () => {
      const slot = await insertSlot(ctx.database, 40);
      const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'forged@example.com' }));
      const forged = await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' }, { secret: 'not-the-secret' });
      expect(forged.status).toBe(401);
      expect(await forged.json()).toMatchObject({ success: false, error: ErrorCode.BAD_SIGNATURE });
      const stale = await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' }, { now: Date.now() - 10 * 60_000 });
      expect(stale.status).toBe(401);
      const tampered = await fetch(`${ctx.baseUrl}/api/payment/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sandbox-timestamp': String(Math.floor(Date.now() / 1000)), 'x-sandbox-signature': 'sha256=' + '0'.repeat(64) },
        body: JSON.stringify({ id: 'evt_x', data: { session_id: sandboxId, status: 'paid' } }),
      });
      expect(tampered.status).toBe(401);
      expect((await paymentRow(ctx, session.id)).status).toBe('pending');
      expect((await slotRow(ctx, slot.id)).status).toBe('available');
      expect(await ctx.database.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, session.id))).toHaveLength(0);
    });

    it('a paid callback for a cancelled payment books nothing and refunds it', async () => {
      const slot = await insertSlot(ctx.database, 41);
      const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'cancelled@example.com' }));
      const cancel = await cancelPayment(session.id, session.holdToken);
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json().data.payment.status).toBe('cancelled');
      expect(await publicIds(ctx)).toContain(slot.id);
      // The gateway had already taken the money when the cancel reached it.
      await markSandboxPaid(ctx, sandboxId);
      const res = await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
      expect(res.status).toBe(200);
      // The refund is its job's, queued by the callback.
      const body = await waitFor(async () => {
        const answer = await status(session.id);
        return answer.data.payment.status === 'refunded' && answer;
      });
      expect(body.message).toContain('refund of RM 75 has been issued');
      expect(body.data.booking.confirmed).toBe(false);
      expect((await slotRow(ctx, slot.id)).status).toBe('available');
      const [sbx] = await ctx.database.db.select().from(sandboxSessions).where(eq(sandboxSessions.id, sandboxId));
      expect(sbx.status).toBe('refunded');
    });
  });

  describe('late and failed payments', () => {
    it('paid after the hold expired: books the slot when it is still free', async () => {
      const slot = await insertSlot(ctx.database, 42);
      const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'late@example.com' }));
      await expireHold(ctx, slot.id);
      await markSandboxPaid(ctx, sandboxId);
      await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
      expect((await status(session.id)).data.payment.status).toBe('completed');
      expect(await slotRow(ctx, slot.id)).toMatchObject({ status: 'booked', bookingReference: session.clientReference });
    });

    it('paid after the hold expired and someone else booked: refund, say so, never book twice', async () => {
      const slot = await insertSlot(ctx.database, 43);
      const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'slow@example.com' }));
      await expireHold(ctx, slot.id);
      const winner = { ...visitor, visitorEmail: 'winner@example.com', visitorContactNo: '0199999999' };
      const other = await bookSlot(ctx.database.db, { consentId: await insertConsent(ctx.database.db), slotId: slot.id, visitor: winner, bookingReference: 'BK-WINNER' });
      expect(other.ok).toBe(true);
      await markSandboxPaid(ctx, sandboxId);
      const callback = await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
      expect(callback.status).toBe(200);
      // The callback alone refunds (after answering): no status call needed.
      await waitFor(async () => (await paymentRow(ctx, session.id)).status === 'refunded');
      const body = await status(session.id);
      expect(body.data.payment.status).toBe('refunded');
      expect(body.message).toMatch(/not booked\. A full refund of RM 75 has been issued/);
      expect(body.data.booking.confirmed).toBe(false);
      expect(await slotRow(ctx, slot.id)).toMatchObject({ visitorEmail: 'winner@example.com', bookingReference: 'BK-WINNER' });
      // No booking mail: the parent and the admin are told of the refund instead (paid-not-booked.test.ts).
      expect((await outboxFor(ctx, session.id)).map((m) => m.kind).sort()).toEqual(['admin_refund', 'visitor_refund']);
      const [sbx] = await ctx.database.db.select().from(sandboxSessions).where(eq(sandboxSessions.id, sandboxId));
      expect(sbx.status).toBe('refunded');
    });

    it('a failed payment (Fail button) fails the payment and puts the slot back in the public list', async () => {
      const slot = await insertSlot(ctx.database, 44);
      const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'declined@example.com' }));
      const res = await fetch(session.checkoutUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'action=fail&method=card',
        redirect: 'manual',
      });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location')!);
      expect(location.pathname).toBe('/payment/failure');
      expect(location.searchParams.get('payment_id')).toBe(session.id);
      // A code, which the site's failure page says in the parent's language.
      expect(location.searchParams.get('error')).toBe(PaymentFailureCode.declined);
      await postSandboxCallback(ctx, { session_id: sandboxId, status: 'failed' });
      expect((await status(session.id)).data.payment.status).toBe('failed');
      expect(await publicIds(ctx)).toContain(slot.id);
    });

    it('an expired session fails the payment (asking the gateway), releases the hold, and a late page visit cannot pay', async () => {
      const slot = await insertSlot(ctx.database, 45);
      const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'expired@example.com' }));
      const past = sql`now() - interval '2 minutes'`;
      await ctx.database.db.update(sandboxSessions).set({ expiresAt: past }).where(eq(sandboxSessions.id, sandboxId));
      await ctx.database.db.execute(sql`UPDATE payments SET session_expires_at = now() - interval '2 minutes' WHERE id = ${session.id}`);
      await expireHold(ctx, slot.id);
      const body = await status(session.id);
      expect(body.data.payment.status).toBe('failed');
      expect(body.message).toBe(BookingMessage.sessionExpired);
      expect((await slotRow(ctx, slot.id)).holdTokenHash).toBeNull();
      expect(await publicIds(ctx)).toContain(slot.id);
      const pay = await fetch(session.checkoutUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'action=pay',
        redirect: 'manual',
      });
      expect(new URL(pay.headers.get('location')!).pathname).toBe('/payment/failure');
    });

    it('cancel releases the hold; verify answers the status; PUT /slot/{id} confirms only a completed matching payment', async () => {
      const slot = await insertSlot(ctx.database, 46);
      const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'confirm@example.com' }));
      const details = { ...visitor, ...parentOf('confirm@example.com'), visitorEmail: 'confirm@example.com', id: slot.id, paymentId: session.id };
      delete (details as { address?: string }).address;
      const early = await ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, payload: details });
      expect(early.statusCode).toBe(402);
      await markSandboxPaid(ctx, sandboxId);
      const verify = await ctx.app.inject({ method: 'POST', url: '/api/payment/verify', payload: { paymentId: session.id, bookingId: slot.id } });
      expect(verify.json().data).toMatchObject({ owner: false, payment: { status: 'completed' } });
      const ownVerify = await ctx.app.inject({ method: 'POST', url: '/api/payment/verify', payload: { paymentId: session.id, bookingId: session.clientReference }, headers: withKey(session.holdToken) });
      expect(ownVerify.json().data).toMatchObject({ owner: true, payment: { id: session.id, status: 'completed' }, booking: { visitorEmail: 'confirm@example.com', childName: visitor.childName, childYear: visitor.childYear } });
      const mismatch = await ctx.app.inject({ method: 'POST', url: '/api/payment/verify', payload: { paymentId: session.id, bookingId: slot.id + 1 } });
      expect(mismatch.statusCode).toBe(400);
      const confirm = await ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, payload: details });
      expect(confirm.statusCode).toBe(200);
      expect(confirm.json().message).toBe(BookingMessage.paymentSuccess);
      const wrong = await ctx.app.inject({ method: 'PUT', url: `/slot/${slot.id}`, payload: { ...details, visitorName: 'Someone Else' } });
      expect(wrong.statusCode).toBe(402);
      const cancelPaid = await cancelPayment(session.id, session.holdToken);
      expect(cancelPaid.statusCode).toBe(409);
      expect(await outboxFor(ctx, session.id)).toHaveLength(2);
    });
  });

  describe('concurrency', () => {
    it('two visitors initiating the same slot at once: one session, one SLOT_RESERVED', async () => {
      const slot = await insertSlot(ctx.database, 47);
      const [a, b] = await Promise.all([
        initiate(ctx, initiateBody(slot, { visitorEmail: 'a@example.com' })),
        initiate(ctx, initiateBody(slot, { visitorEmail: 'b@example.com' })),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      expect([a, b].find((r) => r.statusCode === 409)!.json().error).toBe(ErrorCode.SLOT_RESERVED);
    });

    it('the same visitor double-submitting with their hold token: both answers carry the same session', async () => {
      const slot = await insertSlot(ctx.database, 51);
      const body = initiateBody(slot, { visitorEmail: 'double@example.com', holdToken: await reserve(ctx, slot.id, 'double@example.com') });
      const [a, b] = await Promise.all([initiate(ctx, body), initiate(ctx, body)]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(a.json().data.paymentSession).toEqual(b.json().data.paymentSession);
    });

    it('callbacks (some replays) and reconciliation racing on one payment: every callback 200, one booking, two mails', async () => {
      for (let round = 0; round < 3; round++) {
        const slot = await insertSlot(ctx.database, 60 + round);
        const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: `race${round}@example.com` }));
        await markSandboxPaid(ctx, sandboxId);
        const ids = ['evt_a', 'evt_b', 'evt_c', 'evt_a', 'evt_b'].map((id) => `${id}_${round}`);
        const [callbacks] = await Promise.all([
          Promise.all(ids.map((eventId) => postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' }, { eventId }))),
          ctx.app.inject(`/api/payment/status/${session.id}`),
          ctx.app.inject(`/api/payment/status/reference/${session.clientReference}`),
          ctx.app.reconciler.runOnce(),
        ]);
        expect(callbacks.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
        expect((await paymentRow(ctx, session.id)).status).toBe('completed');
        expect(await outboxFor(ctx, session.id)).toHaveLength(2);
        const events = await ctx.database.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, session.id));
        expect(events).toHaveLength(3);
        const rows = await ctx.database.db.select().from(slots).where(eq(slots.bookingReference, session.clientReference));
        expect(rows).toHaveLength(1);
      }
    });
  });

  it('with the callback dropped, the reconcile queue alone (a pass every 200 ms) finishes the payment', async () => {
    const timed = await startPaymentsApp(driver, { sandboxCallbackDrop: true, reconcileIntervalMs: 200 });
    try {
      await timed.app.reconciler.start();
      const slot = await insertSlot(timed.database, 50);
      const { session } = await initiateOk(timed, initiateBody(slot, { visitorEmail: 'timer@example.com' }));
      await fetch(session.checkoutUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'action=pay&method=ewallet',
        redirect: 'manual',
      });
      await waitFor(async () => (await paymentRow(timed, session.id)).status === 'completed');
      expect(await slotRow(timed, slot.id)).toMatchObject({ status: 'booked', bookingReference: session.clientReference });
    } finally {
      await timed.close();
    }
  });

  it('the sandbox sends its own signed callback when not dropped (delay respected)', async () => {
    const live = await startPaymentsApp(driver, { sandboxCallbackDelayMs: 200 });
    try {
      const slot = await insertSlot(live.database, 49);
      const { session } = await initiateOk(live, initiateBody(slot, { visitorEmail: 'live@example.com' }));
      const pay = await fetch(session.checkoutUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'action=pay&method=fpx',
        redirect: 'manual',
      });
      expect(pay.status).toBe(303);
      expect((await slotRow(live, slot.id)).status).toBe('available');
      const booked = await waitFor(async () => ((await slotRow(live, slot.id)).status === 'booked' ? true : undefined));
      expect(booked).toBe(true);
      expect((await paymentRow(live, session.id)).status).toBe('completed');
    } finally {
      await live.close();
    }
  });
});
