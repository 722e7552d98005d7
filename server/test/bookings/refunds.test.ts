jest.setTimeout(60_000);
import { eq, sql } from 'drizzle-orm';
import { ManageMessage } from 'shared-api/contract';
import { slots } from '../../src/slots/tables';
import { startFakeChip } from '../payments/fake-chip';
import { initiateBody, initiateOk, insertSlot, makeRefundDue, nextRefundTry, paymentRow, publicIds, slotRow, startPaymentsApp, waitFor, type PayCtx } from '../payments/support';
import { auth, insertConsent, queryRows, staffToken } from '../helpers';
import { bookPaid, cancel, eventsOf, mailsOf, manageGet, reschedule, tokenIn } from './support';

const SECRET = 'chip-test-secret-key';
const BRAND = '11111111-2222-3333-4444-555555555555';

describe('cancel refunds through CHIP (fake CHIP, PGlite)', () => {
  let chip: Awaited<ReturnType<typeof startFakeChip>>;
  let ctx: PayCtx;
  let hours = 200;
  beforeAll(async () => {
    chip = await startFakeChip({ secretKey: SECRET, brandId: BRAND });
    ctx = await startPaymentsApp('pglite', { gateway: 'chip', chip: { apiUrl: chip.apiUrl, brandId: BRAND, secretKey: SECRET, publicKey: chip.publicPem } });
  });
  afterAll(async () => {
    await ctx?.close();
    await chip?.close();
  });

  /** A parent pays on CHIP (signed callback) and gets the confirmation's manage token. */
  async function bookOnChip(email: string) {
    const slot = await insertSlot(ctx.database, (hours += 1));
    const { session, payment } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: email }));
    expect((await chip.pay(payment.gatewaySessionId!))!.status).toBe(200);
    const mail = (await mailsOf(ctx, session.id)).find((m) => m.kind === 'visitor_confirmation')!;
    return { paymentId: session.id, purchaseId: payment.gatewaySessionId!, slotId: slot.id, token: tokenIn(mail.textBody) };
  }
  const refundPosts = (purchaseId: string) => chip.requests.filter((r) => r.method === 'POST' && r.path === `/purchases/${purchaseId}/refund/`);

  it('pending_refund: asked once; later checks only read the status; the signed payment.refunded callback finishes it, a replay changes nothing', async () => {
    const b = await bookOnChip('chip-pend@example.com');
    chip.pendRefunds(true);
    try {
      const res = await cancel(ctx, b.token, 7500);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ state: 'cancelled', refund: { amountSen: 7500, state: 'pending' } });
    } finally {
      chip.pendRefunds(false);
    }
    expect(refundPosts(b.purchaseId)).toHaveLength(1);
    expect(refundPosts(b.purchaseId)[0].body).toEqual({ amount: 7500 });
    const pending = await paymentRow(ctx, b.paymentId);
    expect(pending).toMatchObject({ status: 'refund_pending', bookingStatus: 'cancelled', gatewayRefundId: b.purchaseId });
    expect(pending.refundRequestedAt).not.toBeNull();
    // The refund job looks again in half an hour, and only asks how it went.
    expect((await nextRefundTry(ctx.database, b.paymentId))!.getTime()).toBeGreaterThan(Date.now() + 20 * 60_000);
    expect(await publicIds(ctx)).toContain(b.slotId);

    // The check is due while the reconciler, a status poll and an operator's run of the queue all come at once.
    const statusReads = () => chip.requests.filter((r) => r.method === 'GET' && r.path === `/purchases/${b.purchaseId}/`).length;
    const readsBefore = statusReads();
    await makeRefundDue(ctx.database, b.paymentId);
    const due = await paymentRow(ctx, b.paymentId);
    await Promise.all([ctx.app.payments.reconcile(due), ctx.app.jobs.runDue('refund'), ctx.app.inject(`/api/payment/status/${b.paymentId}`)]);
    await waitFor(async () => statusReads() > readsBefore && (await nextRefundTry(ctx.database, b.paymentId)));
    expect(refundPosts(b.purchaseId)).toHaveLength(1);
    expect((await paymentRow(ctx, b.paymentId)).status).toBe('refund_pending');

    // CHIP finishes it and says so with a signed callback; CHIP repeating the callback changes nothing.
    expect((await chip.finishRefund(b.purchaseId)).status).toBe(200);
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({ status: 'refunded', bookingStatus: 'cancelled' });
    const replay = await chip.resendCallback(b.purchaseId);
    expect((await replay.json()).data).toMatchObject({ duplicate: true });
    const events = await eventsOf(ctx, b.paymentId);
    expect(events.map((e) => e.kind)).toEqual(['booked', 'cancelled', 'refund_requested', 'refunded']);
    expect(refundPosts(b.purchaseId)).toHaveLength(1);
    expect((await manageGet(ctx, b.token)).json().data.refund).toEqual({ amountSen: 7500, state: 'refunded' });
    // The waiting check finds nothing to do.
    await makeRefundDue(ctx.database, b.paymentId);
    await ctx.app.jobs.runDue('refund');
    await ctx.app.reconciler.runOnce();
    expect(refundPosts(b.purchaseId)).toHaveLength(1);
  });

  it('a refund the gateway refuses is not an error for the cancel: shown as failing (and to staff), retried later exactly once at a time', async () => {
    const b = await bookOnChip('chip-fail@example.com');
    chip.failRefunds(true);
    let res;
    try {
      res = await cancel(ctx, b.token, 7500);
    } finally {
      chip.failRefunds(false);
    }
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: ManageMessage.cancelledNow, data: { state: 'cancelled', refund: { amountSen: 7500, state: 'failing' } } });
    expect(await slotRow(ctx, b.slotId)).toMatchObject({ status: 'available' });
    const failing = await paymentRow(ctx, b.paymentId);
    expect(failing).toMatchObject({ status: 'refund_pending', refundAttempts: 1, refundRequestedAt: null });
    expect(refundPosts(b.purchaseId)).toHaveLength(1);

    const token = await staffToken(ctx);
    const alerts = (await ctx.app.inject({ url: '/staff/alerts', headers: auth(token) })).json().data;
    expect(alerts.failingRefunds.items).toEqual([expect.objectContaining({ paymentId: b.paymentId, amountSen: 7500, refundAttempts: 1 })]);

    // The retry waits about a minute; when it is due, several runs of the queue at once make one gateway call, which now succeeds.
    const next = (await nextRefundTry(ctx.database, b.paymentId))!.getTime();
    expect(next).toBeGreaterThan(Date.now() + 20_000);
    expect(alerts.failingRefunds.items[0].nextRefundAt).not.toBeNull();
    await makeRefundDue(ctx.database, b.paymentId);
    const due = await paymentRow(ctx, b.paymentId);
    await Promise.all([ctx.app.jobs.runDue('refund'), ctx.app.jobs.runDue('refund'), ctx.app.payments.reconcile(due), ctx.app.reconciler.runOnce()]);
    await waitFor(async () => (await paymentRow(ctx, b.paymentId)).status === 'refunded');
    expect(refundPosts(b.purchaseId)).toHaveLength(2);
    expect(chip.refunds.filter((r) => r.purchaseId === b.purchaseId)).toEqual([{ purchaseId: b.purchaseId, amount: 7500 }]);
    expect((await paymentRow(ctx, b.paymentId)).status).toBe('refunded');
    expect((await eventsOf(ctx, b.paymentId)).map((e) => e.kind)).toEqual(['booked', 'cancelled', 'refund_requested', 'refund_failed', 'refunded']);
    const history = (await ctx.app.inject({ url: `/staff/bookings/${(await paymentRow(ctx, b.paymentId)).reference}`, headers: auth(token) })).json().data;
    expect(history.refund).toEqual({ amountSen: 7500, state: 'refunded' });
    expect((await ctx.app.inject({ url: '/staff/alerts', headers: auth(token) })).json().data.failingRefunds.total).toBe(0);
  });
});

describe('staff bookings: list, history, cancel with and without refund (sandbox, PGlite)', () => {
  let ctx: PayCtx;
  let token: string;
  let hours = 300;
  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
    token = await staffToken(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('staff need to be logged in', async () => {
    expect((await ctx.app.inject('/staff/bookings')).statusCode).toBe(401);
    expect((await ctx.app.inject('/staff/bookings/PAY-X')).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'POST', url: '/staff/bookings/PAY-X/cancel', payload: { refund: true } })).statusCode).toBe(401);
  });

  it('cancels inside the parents’ cut-off with a full refund, recorded with the staff email; the history reads in order', async () => {
    const b = await bookPaid(ctx, 5, 'staff1@example.com');
    const res = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${b.reference}/cancel`, payload: { refund: true }, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: ManageMessage.staffCancelled,
      data: { reference: b.reference, state: 'cancelled', refund: { amountSen: 7500, state: 'refunded' }, visitorEmail: 'staff1@example.com' },
    });
    const history = res.json().data.history;
    expect(history.map((e: { kind: string; actor: string; amountSen: number | null }) => [e.kind, e.actor, e.amountSen])).toEqual([
      ['booked', 'parent', 7500],
      ['cancelled', 'staff@example.com', null],
      ['refund_requested', 'staff@example.com', 7500],
      ['refunded', 'system', 7500],
    ]);
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({ cancelledBy: 'staff@example.com', status: 'refunded' });
    expect(await publicIds(ctx)).toContain(b.slotId);
    const mails = await mailsOf(ctx, b.paymentId);
    expect(mails.find((m) => m.kind === 'visitor_cancelled')!.textBody).toContain('cancelled by the school');
    expect(mails.find((m) => m.kind === 'admin_cancelled')!.textBody).toContain('staff@example.com');
    const again = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${b.reference}/cancel`, payload: { refund: true }, headers: auth(token) });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ManageMessage.alreadyCancelled);
  });

  it('cancels without a refund; the list shows every paid booking newest visit first with state and refund; moves show in the history', async () => {
    const kept = await bookPaid(ctx, (hours += 10), 'staff2@example.com');
    const dropped = await bookPaid(ctx, (hours += 10), 'staff3@example.com');
    const res = await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${dropped.reference}/cancel`, payload: { refund: false }, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ state: 'cancelled', refund: null });
    expect(await paymentRow(ctx, dropped.paymentId)).toMatchObject({ status: 'completed', bookingStatus: 'cancelled', refundAmountSen: null });
    expect((await mailsOf(ctx, dropped.paymentId)).find((m) => m.kind === 'visitor_cancelled')!.textBody).toContain('No refund applies');

    const target = await insertSlot(ctx.database, (hours += 10));
    expect((await reschedule(ctx, kept.token, target.id)).statusCode).toBe(200);
    const detail = (await ctx.app.inject({ url: `/staff/bookings/${kept.reference}`, headers: auth(token) })).json().data;
    expect(detail).toMatchObject({ state: 'booked', start: target.startAt.toISOString(), refund: null });
    expect(detail.history[1]).toMatchObject({
      kind: 'rescheduled',
      actor: 'parent',
      fromStart: (await slotRow(ctx, kept.slotId)).startAt.toISOString(),
      toStart: target.startAt.toISOString(),
    });

    const list = (await ctx.app.inject({ url: '/staff/bookings', headers: auth(token) })).json().data.bookings as { reference: string; start: string; state: string }[];
    const starts = list.map((r) => r.start);
    expect(starts).toEqual([...starts].sort().reverse());
    expect(list.find((r) => r.reference === dropped.reference)).toMatchObject({ state: 'cancelled' });
    expect(list.find((r) => r.reference === kept.reference)).toMatchObject({ state: 'booked', start: target.startAt.toISOString() });
    expect(list.some((r) => 'history' in r)).toBe(false);

    expect((await ctx.app.inject({ url: '/staff/bookings/PAY-NOPE', headers: auth(token) })).statusCode).toBe(404);
    // Unpaid payments are not bookings.
    const slot = await insertSlot(ctx.database, (hours += 10));
    const { session } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'staff4@example.com' }));
    expect(list.some((r) => r.reference === session.clientReference)).toBe(false);
  });

  it('staff move a booking inside the parents\' cut-off, recorded with who; a taken slot or a cancelled booking is refused and changes nothing', async () => {
    const b = await bookPaid(ctx, 6, 'staff-move@example.com');
    const target = await insertSlot(ctx.database, (hours += 10));
    const move = (reference: string, slotId: number, withToken = true) =>
      ctx.app.inject({ method: 'POST', url: `/staff/bookings/${reference}/move`, payload: { slotId }, headers: withToken ? auth(token) : {} });
    expect((await move(b.reference, target.id, false)).statusCode).toBe(401);

    const res = await move(b.reference, target.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: ManageMessage.staffMoved, data: { reference: b.reference, state: 'booked', start: target.startAt.toISOString() } });
    expect(res.json().data.history.at(-1)).toMatchObject({ kind: 'rescheduled', actor: 'staff@example.com', toStart: target.startAt.toISOString() });
    expect(await publicIds(ctx)).toContain(b.slotId);
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({ slotId: target.id, calendarSequence: 1 });
    expect((await mailsOf(ctx, b.paymentId)).map((m) => m.kind)).toEqual(expect.arrayContaining(['visitor_rescheduled', 'admin_rescheduled']));
    const audit = await queryRows<{ actor: string; action: string; target: string }>(ctx.database, sql`SELECT actor, action, target FROM audit_log WHERE action = 'booking_moved_by_staff'`);
    expect(audit).toEqual([{ actor: 'staff@example.com', action: 'booking_moved_by_staff', target: b.reference }]);

    // A slot someone else booked: 409, the booking stays where it is.
    const other = await bookPaid(ctx, (hours += 10), 'staff-move-2@example.com');
    const taken = await move(b.reference, other.slotId);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(ManageMessage.slotTaken);
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({ slotId: target.id, calendarSequence: 1 });

    await ctx.app.inject({ method: 'POST', url: `/staff/bookings/${other.reference}/cancel`, payload: { refund: false }, headers: auth(token) });
    const free = await insertSlot(ctx.database, (hours += 10));
    const cancelled = await move(other.reference, free.id);
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().message).toBe(ManageMessage.alreadyCancelled);
    expect(await publicIds(ctx)).toContain(free.id);
  });

  it('lists a booked slot no payment stands behind (the demo seed\'s) as booked, so the export keeps it', async () => {
    const slot = await insertSlot(ctx.database, (hours += 10));
    await ctx.database.db
      .update(slots)
      .set({ status: 'booked', visitorName: 'Demo Parent', visitorEmail: 'demo@example.com', visitorContactNo: '0123456789', selectedSchool: 'Seri Ilmu International', bookingReference: 'DEMO-1', amountSen: 10000, bookedAt: new Date(), consentId: await insertConsent(ctx.database.db) })
      .where(eq(slots.id, slot.id));
    const list = (await ctx.app.inject({ url: '/staff/bookings', headers: auth(token) })).json().data.bookings as { reference: string; start: string }[];
    expect(list.find((r) => r.reference === 'DEMO-1')).toMatchObject({
      state: 'booked',
      refund: null,
      // The slot carries the school's fee, but nothing was paid: nothing to refund.
      paymentId: null,
      visitorName: 'Demo Parent',
      school: 'Seri Ilmu International',
      amountPaidSen: 0,
      start: slot.startAt.toISOString(),
    });
    const starts = list.map((r) => r.start);
    expect(starts).toEqual([...starts].sort().reverse());
  });
});
