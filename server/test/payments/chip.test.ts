jest.setTimeout(60_000);
import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ErrorCode, PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { bookSlotRow as bookSlot } from '../../src/checkout/hold-rows';
import { payments } from '../../src/payments/tables';
import { startFakeChip } from './fake-chip';
import { expireHold, initiateBody, initiateOk, insertSlot, outboxFor, paymentRow, slotRow, startPaymentsApp, visitor, waitFor, type PayCtx } from './support';
import { insertConsent } from '../helpers';

const SECRET = 'chip-test-secret-key';
const BRAND = '11111111-2222-3333-4444-555555555555';

describe('CHIP Collect adapter against a local fake CHIP', () => {
  let chip: Awaited<ReturnType<typeof startFakeChip>>;
  let ctx: PayCtx;
  beforeAll(async () => {
    chip = await startFakeChip({ secretKey: SECRET, brandId: BRAND });
    // No public key configured: the adapter fetches it from CHIP's /public_key/.
    ctx = await startPaymentsApp('pglite', { gateway: 'chip', chip: { apiUrl: chip.apiUrl, brandId: BRAND, secretKey: SECRET, publicKey: undefined } });
  });
  afterAll(async () => {
    await ctx?.close();
    await chip?.close();
  });

  /** The status answer; with the payment's key (the paying browser's) it names the method too. */
  const status = async (id: string, key?: string) =>
    (await ctx.app.inject({ url: `/api/payment/status/${id}`, headers: key === undefined ? {} : { [PAYMENT_KEY_HEADER]: key } })).json();

  it('creates a purchase with client, products in sen, MYR, reference, strict due = hold expiry, redirects, callback and whitelist', async () => {
    const slot = await insertSlot(ctx.database, 30);
    const { session, payment } = await initiateOk(ctx, initiateBody(slot, { preferredPaymentMethod: 'card' }));
    const created = chip.requests.find((r) => r.method === 'POST' && r.path === '/purchases/')!;
    expect(created.body).toMatchObject({
      brand_id: BRAND,
      client: { email: visitor.visitorEmail, full_name: visitor.visitorName, phone: '0123456789' },
      purchase: { currency: 'MYR', products: [{ name: expect.stringContaining(visitor.selectedSchool), price: 7500 }], due_strict: true },
      reference: session.clientReference,
      due: Math.floor(payment.sessionExpiresAt.getTime() / 1000),
      success_redirect: `http://site.test/payment/success?reference=${session.clientReference}`,
      failure_redirect: `http://site.test/payment/failure?payment_id=${session.id}`,
      // Cancel on CHIP's page: the failure page says the parent cancelled (nothing charged), not a bank decline.
      cancel_redirect: `http://site.test/payment/failure?payment_id=${session.id}&error=payment_cancelled`,
      success_callback: `${ctx.baseUrl}/api/payment/callback`,
    });
    const whitelist = (created.body as { payment_method_whitelist: string[] }).payment_method_whitelist;
    expect(whitelist.slice(0, 3)).toEqual(['visa', 'mastercard', 'maestro']);
    expect(whitelist).toEqual(expect.arrayContaining(['fpx', 'duitnow_qr', 'razer_tng']));
    expect(session.checkoutUrl).toBe(chip.purchases.get(payment.gatewaySessionId!)!.checkout_url);
  });

  it('books from CHIP’s RSA-signed callback; a callback signed with another key gets 401 and changes nothing', async () => {
    const slot = await insertSlot(ctx.database, 31);
    const { session, payment } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'chip1@example.com' }));
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const forged = await chip.pay(payment.gatewaySessionId!, { signWith: stranger });
    expect(forged!.status).toBe(401);
    expect((await forged!.json()).error).toBe(ErrorCode.BAD_SIGNATURE);
    expect((await paymentRow(ctx, session.id)).status).toBe('pending');
    expect((await slotRow(ctx, slot.id)).status).toBe('available');

    const res = await chip.pay(payment.gatewaySessionId!);
    expect(res!.status).toBe(200);
    expect(await slotRow(ctx, slot.id)).toMatchObject({ status: 'booked', bookingReference: session.clientReference });
    expect((await paymentRow(ctx, session.id)).method).toBe('fpx');
    expect(await outboxFor(ctx, session.id)).toHaveLength(2);
    // CHIP repeating the same callback: acknowledged, nothing new.
    const again = await fetch(`${ctx.baseUrl}/api/payment/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': chip.signBody(JSON.stringify(chip.purchases.get(payment.gatewaySessionId!))) },
      body: JSON.stringify(chip.purchases.get(payment.gatewaySessionId!)),
    });
    expect((await again.json()).data.duplicate).toBe(true);
  });

  it('without a callback, the status route asks GET /purchases/{id}/ and finishes the payment', async () => {
    const slot = await insertSlot(ctx.database, 32);
    const { session, payment } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'chip2@example.com' }));
    await chip.pay(payment.gatewaySessionId!, { method: 'visa', sendCallback: false });
    const body = await status(session.id, session.holdToken);
    expect(body.data.payment).toMatchObject({ status: 'completed', method: 'card' });
    expect(chip.requests.some((r) => r.method === 'GET' && r.path === `/purchases/${payment.gatewaySessionId}/`)).toBe(true);
  });

  it('paid after the hold expired and the slot was taken: refund through POST /purchases/{id}/refund/', async () => {
    const slot = await insertSlot(ctx.database, 33);
    const { session, payment } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'chip3@example.com' }));
    await expireHold(ctx, slot.id);
    await bookSlot(ctx.database.db, { consentId: await insertConsent(ctx.database.db), slotId: slot.id, visitor: { ...visitor, visitorEmail: 'other@example.com', visitorContactNo: '0111111111' } });
    await chip.pay(payment.gatewaySessionId!);
    // The refund is its job's, queued by the signed callback: the status says so once it went through.
    await waitFor(async () => (await status(session.id)).data.payment.status === 'refunded');
    expect(chip.refunds).toContainEqual({ purchaseId: payment.gatewaySessionId, amount: 7500 });
    const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, session.id));
    expect(row.gatewayRefundId).toBeTruthy();
    expect((await slotRow(ctx, slot.id)).visitorEmail).toBe('other@example.com');
  });

  it('cancel cancels the purchase at CHIP and releases the hold', async () => {
    const slot = await insertSlot(ctx.database, 34);
    const { session, payment } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'chip4@example.com' }));
    const res = await ctx.app.inject({ method: 'POST', url: `/api/payment/${session.id}/cancel`, headers: { [PAYMENT_KEY_HEADER]: session.holdToken } });
    expect(res.json().data.payment.status).toBe('cancelled');
    expect(chip.purchases.get(payment.gatewaySessionId!)!.status).toBe('cancelled');
    expect((await slotRow(ctx, slot.id)).holdExpiresAt).toBeNull();
  });

  it('payment health is healthy while CHIP answers, 503 unhealthy when it does not', async () => {
    const ok = await ctx.app.inject('/api/payment/health');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ status: 'healthy', gateway: 'chip' });
    const down = await startPaymentsApp('pglite', { gateway: 'chip', chip: { apiUrl: 'http://127.0.0.1:9/api/v1', brandId: BRAND, secretKey: SECRET, publicKey: chip.publicPem } });
    try {
      const res = await down.app.inject('/api/payment/health');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ success: false, data: { status: 'unhealthy' }, message: 'Payment service is not healthy' });
      // Initiating while CHIP is down: a clear error, the hold given back.
      const slot = await insertSlot(down.database, 35);
      const init = await down.app.inject({ method: 'POST', url: '/api/payment/initiate', payload: initiateBody(slot) });
      expect(init.statusCode).toBe(502);
      expect(init.json()).toMatchObject({ error: ErrorCode.GATEWAY_ERROR, message: 'Payment service is temporarily unavailable. Please try again.' });
      expect((await slotRow(down, slot.id)).holdExpiresAt).toBeNull();
    } finally {
      await down.close();
    }
  });
});
