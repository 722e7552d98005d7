jest.setTimeout(60_000);
import { eq } from 'drizzle-orm';
import { brand, PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { summariseMail } from '../../src/mail/outbox';
import { paymentEvents } from '../../src/payments/tables';
import { type MailRow } from '../../src/mail/tables';
import { bookSlotRow as bookSlot } from '../../src/checkout/hold-rows';
import { startFakeChip } from './fake-chip';
import {
  expireHold,
  initiateBody,
  initiateOk,
  insertSlot,
  markSandboxPaid,
  outboxFor,
  paymentRow,
  postSandboxCallback,
  slotRow,
  startPaymentsApp,
  visitor,
  makeRefundDue,
  waitFor,
  type Driver,
  type PayCtx,
} from './support';
import { insertConsent } from '../helpers';

// A payment that arrives but books nothing (slot taken, cancelled first, amount not the fee) is refunded, the parent and
// the school's admin are told, and the status says what happened to those mails.
const drivers: Driver[] = ['pglite', 'postgres'];
const winner = { ...visitor, visitorEmail: 'winner@example.com', visitorContactNo: '0199999999' };

/** The slot's hold runs out and another family books it. */
async function slotTakenMeanwhile(ctx: PayCtx, slotId: number) {
  await expireHold(ctx, slotId);
  expect((await bookSlot(ctx.database.db, { consentId: await insertConsent(ctx.database.db), slotId, visitor: winner })).ok).toBe(true);
}

const mailOf = async (ctx: PayCtx, paymentId: string, kind: string) => (await outboxFor(ctx, paymentId)).find((m) => m.kind === kind)!;

describe.each(drivers)('paid but not booked, sandbox gateway, on %s', (driver) => {
  let ctx: PayCtx;
  beforeAll(async () => {
    ctx = await startPaymentsApp(driver, { sandboxCallbackDrop: true });
  });
  afterAll(() => ctx?.close());
  /** What the paying browser reads (with the payment's key): the mails' state too. */
  const status = async (session: { id: string; holdToken: string }) =>
    (await ctx.app.inject({ url: `/api/payment/status/${session.id}`, headers: { [PAYMENT_KEY_HEADER]: session.holdToken } })).json();

  it('a late payer gets a kind mail (slot taken, refund of what was paid, whom to ask), the admin is told, and emailStatus follows them', async () => {
    const slot = await insertSlot(ctx.database, 30);
    const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'late-mail@example.com' }));
    await slotTakenMeanwhile(ctx, slot.id);
    await markSandboxPaid(ctx, sandboxId);
    expect((await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid', amount: 7500 })).status).toBe(200);
    await waitFor(async () => (await paymentRow(ctx, session.id)).status === 'refunded');
    expect(await paymentRow(ctx, session.id)).toMatchObject({ paidAmountSen: 7500, refundAttempts: 0 });

    const parent = await mailOf(ctx, session.id, 'visitor_refund');
    expect(parent.recipient).toBe('late-mail@example.com');
    expect(parent.subject).toBe('Your booking could not be completed: refund of RM 75');
    for (const words of [
      'Dear Nur Aina,',
      'Your payment was received after this slot was no longer available, so it was not booked.',
      'A full refund of RM 75 is being issued to the same payment method you used.',
      `School: ${visitor.selectedSchool}`,
      `Payment reference: ${session.clientReference}`,
      `please write to ${brand.supportEmail}`,
    ])
      expect(parent.textBody).toContain(words);
    expect(parent.htmlBody).toContain(`mailto:${brand.supportEmail}`);
    expect(parent.ics).toBeNull();

    const admin = await mailOf(ctx, session.id, 'admin_refund');
    expect(admin.recipient).toBe(ctx.config.payments.adminNotifyEmail);
    expect(admin.subject).toMatch(/^Paid but not booked, refunding RM 75: Nur Aina, Seri Ilmu Private Secondary, /);
    for (const words of [
      'the slot had been taken (or removed) by the time the payment arrived',
      'Email: late-mail@example.com',
      `Payment reference: ${session.clientReference}`,
      'Amount paid: RM 75',
      'Refund: RM 75 being issued automatically',
    ])
      expect(admin.textBody).toContain(words);

    // The refund mails woke the mail worker: the status reports them sent, not 'pending' forever.
    const after = await waitFor(async () => {
      const res = await status(session);
      return res.data.emailStatus === 'sent' ? res : undefined;
    });
    expect((await outboxFor(ctx, session.id)).map((m) => m.status)).toEqual(['sent', 'sent']);
    expect(after.data).toMatchObject({ payment: { status: 'refunded' }, booking: { confirmed: false }, emailStatus: 'sent' });
    expect(after.message).toBe('Your payment was received after this slot was no longer available, so it was not booked. A full refund of RM 75 has been issued.');
  });

  it('paid after the parent cancelled: refunded, and the mail says the booking had been cancelled', async () => {
    const slot = await insertSlot(ctx.database, 31);
    const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'cancel-mail@example.com' }));
    expect((await ctx.app.inject({ method: 'POST', url: `/api/payment/${session.id}/cancel`, headers: { [PAYMENT_KEY_HEADER]: session.holdToken } })).statusCode).toBe(200);
    await markSandboxPaid(ctx, sandboxId);
    await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' });
    await waitFor(async () => (await paymentRow(ctx, session.id)).status === 'refunded');
    expect((await mailOf(ctx, session.id, 'visitor_refund')).textBody).toContain(
      'Your payment was received after the booking was cancelled, so no slot was booked.',
    );
    expect((await mailOf(ctx, session.id, 'admin_refund')).textBody).toContain('the payment arrived after the booking had been cancelled');
    expect((await status(session)).message).toBe(
      'Your payment was received after the booking was cancelled, so no slot was booked. A full refund of RM 75 has been issued.',
    );
  });

  it('a repeated paid event after the refund queues no second pair of mails and calls no second refund', async () => {
    const slot = await insertSlot(ctx.database, 32);
    const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'twice-late@example.com' }));
    await slotTakenMeanwhile(ctx, slot.id);
    await markSandboxPaid(ctx, sandboxId);
    await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' }, { eventId: 'evt_late_1' });
    await waitFor(async () => (await paymentRow(ctx, session.id)).status === 'refunded');
    const refunded = await paymentRow(ctx, session.id);
    await postSandboxCallback(ctx, { session_id: sandboxId, status: 'paid' }, { eventId: 'evt_late_2' });
    expect(await outboxFor(ctx, session.id)).toHaveLength(2);
    expect(await paymentRow(ctx, session.id)).toEqual(refunded);
  });

  it('a callback naming an unknown session is acknowledged and ignored, even when its reference is a real payment’s', async () => {
    const slot = await insertSlot(ctx.database, 33);
    const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'spoofed@example.com' }));
    await markSandboxPaid(ctx, sandboxId);
    const res = await postSandboxCallback(ctx, { session_id: 'sbx_not_ours', reference: session.clientReference, status: 'paid' });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ received: true, applied: false, duplicate: false });
    expect((await paymentRow(ctx, session.id)).status).toBe('pending');
    expect((await slotRow(ctx, slot.id)).status).toBe('available');
    expect(await ctx.database.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, session.id))).toHaveLength(0);
  });
});

describe.each(drivers)('paid but not booked, CHIP, on %s', (driver) => {
  const SECRET = 'chip-refund-secret';
  const BRAND = '22222222-2222-3333-4444-555555555555';
  let chip: Awaited<ReturnType<typeof startFakeChip>>;
  let ctx: PayCtx;
  beforeAll(async () => {
    chip = await startFakeChip({ secretKey: SECRET, brandId: BRAND });
    ctx = await startPaymentsApp(driver, { gateway: 'chip', chip: { apiUrl: chip.apiUrl, brandId: BRAND, secretKey: SECRET, publicKey: chip.publicPem } });
  });
  afterAll(async () => {
    await ctx?.close();
    await chip?.close();
  });
  const status = async (id: string) => (await ctx.app.inject(`/api/payment/status/${id}`)).json();

  it('an amount that is not the fee books nothing and refunds what CHIP says was paid', async () => {
    const slot = await insertSlot(ctx.database, 40);
    const { session, payment } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'short@example.com' }));
    expect((await chip.pay(payment.gatewaySessionId!, { amount: 5000 }))!.status).toBe(200);
    const body = await waitFor(async () => {
      const res = await status(session.id);
      return res.data.payment.status === 'refunded' ? res : undefined;
    });
    expect(chip.refunds).toContainEqual({ purchaseId: payment.gatewaySessionId, amount: 5000 });
    expect(body.message).toBe(
      'The amount received (RM 50) did not match the fee for this visit (RM 75), so the slot was not booked. A full refund of RM 50 has been issued.',
    );
    expect((await slotRow(ctx, slot.id)).status).toBe('available');
    const parent = await mailOf(ctx, session.id, 'visitor_refund');
    expect(parent.subject).toBe('Your booking could not be completed: refund of RM 50');
    expect(parent.textBody).toContain('A full refund of RM 50 is being issued');
    expect((await mailOf(ctx, session.id, 'admin_refund')).textBody).toContain('Fee: RM 75');
  });

  it('a refund CHIP refuses stays refund_pending with its error and attempt recorded, and goes through once it is due again', async () => {
    const slot = await insertSlot(ctx.database, 41);
    const { session, payment } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'refused@example.com' }));
    await slotTakenMeanwhile(ctx, slot.id);
    chip.failRefunds(true);
    try {
      await chip.pay(payment.gatewaySessionId!);
      await waitFor(async () => (await paymentRow(ctx, session.id)).refundAttempts === 1);
      expect(await paymentRow(ctx, session.id)).toMatchObject({ status: 'refund_pending', refundLastError: expect.stringContaining('purchase_refund_error') });
      const pending = await status(session.id);
      expect(pending.data.payment.status).toBe('refund_pending');
      expect(pending.message).toMatch(/A full refund of RM 75 is being processed\.$/);
      // Its job waits before the next try: a poll does not call CHIP's refund again.
      expect(chip.requests.filter((r) => r.path === `/purchases/${payment.gatewaySessionId}/refund/`)).toHaveLength(1);
    } finally {
      chip.failRefunds(false);
    }
    await makeRefundDue(ctx.database, session.id);
    await waitFor(async () => (await status(session.id)).data.payment.status === 'refunded');
    expect(chip.requests.filter((r) => r.path === `/purchases/${payment.gatewaySessionId}/refund/`)).toHaveLength(2);
    expect(chip.refunds).toContainEqual({ purchaseId: payment.gatewaySessionId, amount: 7500 });
  });
});

describe('summariseMail over refund mails', () => {
  const mail = (kind: MailRow['kind'], status: MailRow['status'], timedOut = false) => ({ kind, status, timedOut }) as MailRow;

  it('reports the refund mails as it does the booking mails: sent, failed, or a timeout per recipient', () => {
    expect(summariseMail([mail('visitor_refund', 'sent'), mail('admin_refund', 'sent')]).emailStatus).toBe('sent');
    expect(summariseMail([mail('visitor_refund', 'failed'), mail('admin_refund', 'sent')]).emailStatus).toBe('failed');
    expect(summariseMail([mail('visitor_refund', 'pending', true), mail('admin_refund', 'sent')])).toEqual({
      emailStatus: 'timeout',
      emailTimeouts: { visitorEmailTimeout: true, adminEmailTimeout: false },
    });
    expect(summariseMail([mail('visitor_refund', 'sent'), mail('admin_refund', 'pending', true)]).emailTimeouts).toEqual({
      visitorEmailTimeout: false,
      adminEmailTimeout: true,
    });
  });
});
