jest.setTimeout(60_000);
import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { startFakeChip } from './fake-chip';
import { initiateBody, initiateOk, insertSlot, paymentRow, startPaymentsApp, type PayCtx } from './support';
import { cancel, eventsOf, mailsOf, tokenIn } from '../bookings/support';
import { auth, staffToken } from '../helpers';
import { paymentEvents } from '../../src/payments/tables';

const SECRET = 'chip-test-secret-key';
const BRAND = '11111111-2222-3333-4444-555555555555';

describe("CHIP's webhook at /api/payment/webhook: its own key, each event by its type (fake CHIP, PGlite)", () => {
  let chip: Awaited<ReturnType<typeof startFakeChip>>;
  let ctx: PayCtx;
  let webhookUrl: string;
  let callbackUrl: string;
  beforeAll(async () => {
    chip = await startFakeChip({ secretKey: SECRET, brandId: BRAND });
    ctx = await startPaymentsApp('pglite', {
      gateway: 'chip',
      chip: { apiUrl: chip.apiUrl, brandId: BRAND, secretKey: SECRET, publicKey: chip.publicPem, webhookPublicKey: chip.webhookPublicPem },
    });
    webhookUrl = `${ctx.baseUrl}/api/payment/webhook`;
    callbackUrl = `${ctx.baseUrl}/api/payment/callback`;
  });
  afterAll(async () => {
    await ctx?.close();
    await chip?.close();
  });

  /** A parent pays on CHIP (the signed success callback books the slot). */
  async function paidBooking(email: string, hoursAhead: number) {
    const slot = await insertSlot(ctx.database, hoursAhead);
    const { session, payment } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: email }));
    expect((await chip.pay(payment.gatewaySessionId!))!.status).toBe(200);
    const row = await paymentRow(ctx, session.id);
    expect(row).toMatchObject({ status: 'completed', bookingStatus: 'booked' });
    return { paymentId: session.id, purchaseId: payment.gatewaySessionId!, reference: row.reference };
  }
  const recorded = (paymentId: string) => ctx.database.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, paymentId));

  it('a pending refund: pending_refund changes nothing; payment.refunded signed with the wrong key for its kind is refused; the right one finishes it once', async () => {
    const b = await paidBooking('chip-hook@example.com', 400);
    const mail = (await mailsOf(ctx, b.paymentId)).find((m) => m.kind === 'visitor_confirmation')!;
    chip.pendRefunds(true);
    try {
      expect((await cancel(ctx, tokenIn(mail.textBody), 7500)).statusCode).toBe(200);
    } finally {
      chip.pendRefunds(false);
    }
    expect((await paymentRow(ctx, b.paymentId)).status).toBe('refund_pending');

    // CHIP's purchase.pending_refund (the Purchase, in pending_refund): acknowledged, the refund still owed.
    const pending = await chip.sendWebhook(webhookUrl, chip.purchaseEvent(b.purchaseId, 'purchase.pending_refund'));
    expect(pending.status).toBe(200);
    expect((await paymentRow(ctx, b.paymentId)).status).toBe('refund_pending');

    const refund = chip.paymentEvent(b.purchaseId, 'payment.refunded', 7500);
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const before = (await recorded(b.paymentId)).length;
    for (const [url, key] of [
      [webhookUrl, stranger],
      [webhookUrl, chip.companyKey],
      [callbackUrl, undefined],
    ] as const) {
      const res = await chip.sendWebhook(url, refund, key);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe('BAD_SIGNATURE');
    }
    expect((await paymentRow(ctx, b.paymentId)).status).toBe('refund_pending');
    expect(await recorded(b.paymentId)).toHaveLength(before);

    const done = await chip.sendWebhook(webhookUrl, refund);
    expect(await done.json()).toMatchObject({ data: { received: true, applied: true, duplicate: false } });
    expect(await paymentRow(ctx, b.paymentId)).toMatchObject({ status: 'refunded', bookingStatus: 'cancelled' });
    const history = (await eventsOf(ctx, b.paymentId)).map((e) => e.kind);
    expect(history.filter((k) => k === 'refunded')).toHaveLength(1);

    // CHIP delivering the same event again changes nothing.
    const replay = await chip.sendWebhook(webhookUrl, refund);
    expect(await replay.json()).toMatchObject({ data: { received: true, applied: false, duplicate: true } });
    expect((await eventsOf(ctx, b.paymentId)).map((e) => e.kind)).toEqual(history);
  });

  it('a chargeback: noted on the payment with its time and amount, in the booking history and the staff alerts; the booking stays; a replay changes nothing', async () => {
    const b = await paidBooking('chip-chargeback@example.com', 402);
    const chargeback = chip.paymentEvent(b.purchaseId, 'payment.charged_back', 7500);
    const res = await chip.sendWebhook(webhookUrl, chargeback);
    expect(await res.json()).toMatchObject({ data: { received: true, applied: true, duplicate: false } });
    const p = await paymentRow(ctx, b.paymentId);
    expect(p).toMatchObject({ status: 'completed', bookingStatus: 'booked', chargebackAmountSen: 7500, chargebackAt: new Date(chargeback.created_on * 1000) });

    const token = await staffToken(ctx);
    const answer = await ctx.app.inject({ url: `/staff/bookings/${b.reference}`, headers: auth(token) });
    expect(answer.statusCode).toBe(200);
    const details = answer.json().data;
    expect(details.state).toBe('booked');
    expect(details.history.filter((e: { kind: string }) => e.kind === 'charged_back')).toEqual([expect.objectContaining({ actor: 'system', amountSen: 7500 })]);
    const alerts = (await ctx.app.inject({ url: '/staff/alerts', headers: auth(token) })).json().data;
    expect(alerts.chargebacks.items).toContainEqual({
      paymentId: b.paymentId,
      reference: b.reference,
      visitorName: expect.any(String),
      amountSen: 7500,
      at: expect.stringMatching(/\+08:00$/),
      bookingStatus: 'booked',
    });

    const replay = await chip.sendWebhook(webhookUrl, chargeback);
    expect(await replay.json()).toMatchObject({ data: { applied: false, duplicate: true } });
    expect((await paymentRow(ctx, b.paymentId)).chargebackAmountSen).toBe(7500);
    expect((await eventsOf(ctx, b.paymentId)).filter((e) => e.kind === 'charged_back')).toHaveLength(1);
  });

  it('an event type this product does not use: 200, acknowledged, nothing changes', async () => {
    const b = await paidBooking('chip-other@example.com', 404);
    const before = { row: await paymentRow(ctx, b.paymentId), events: await recorded(b.paymentId) };
    const res = await chip.sendWebhook(webhookUrl, chip.purchaseEvent(b.purchaseId, 'purchase.viewed'));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ message: 'Event acknowledged', data: { received: true, applied: false, duplicate: false } });
    expect(await paymentRow(ctx, b.paymentId)).toEqual(before.row);
    expect(await recorded(b.paymentId)).toEqual(before.events);
  });
});
