jest.setTimeout(60_000);
import { generateKeyPairSync } from 'node:crypto';
import { startFakeChip } from './fake-chip';
import { initiateBody, initiateOk, insertSlot, paymentRow, startPaymentsApp, type PayCtx } from './support';
import { cancel, eventsOf, mailsOf, tokenIn } from '../bookings/support';

const SECRET = 'chip-test-secret-key';
const BRAND = '11111111-2222-3333-4444-555555555555';

describe('CHIP payment.refunded webhook through /api/payment/callback (fake CHIP, PGlite)', () => {
  let chip: Awaited<ReturnType<typeof startFakeChip>>;
  let ctx: PayCtx;
  beforeAll(async () => {
    chip = await startFakeChip({ secretKey: SECRET, brandId: BRAND });
    ctx = await startPaymentsApp('pglite', {
      gateway: 'chip',
      chip: { apiUrl: chip.apiUrl, brandId: BRAND, secretKey: SECRET, publicKey: chip.publicPem, webhookPublicKey: chip.webhookPublicPem },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await chip?.close();
  });

  it('a pending refund: a stranger-signed webhook gets 401 and changes nothing; the webhook-key-signed one finishes it', async () => {
    const slot = await insertSlot(ctx.database, 400);
    const { session, payment } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: 'chip-hook@example.com' }));
    expect((await chip.pay(payment.gatewaySessionId!))!.status).toBe(200);
    const mail = (await mailsOf(ctx, session.id)).find((m) => m.kind === 'visitor_confirmation')!;
    chip.pendRefunds(true);
    try {
      expect((await cancel(ctx, tokenIn(mail.textBody), 7500)).statusCode).toBe(200);
    } finally {
      chip.pendRefunds(false);
    }
    expect((await paymentRow(ctx, session.id)).status).toBe('refund_pending');
    const url = `${ctx.baseUrl}/api/payment/callback`;

    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect((await chip.sendRefundWebhook(payment.gatewaySessionId!, url, { amount: 7500, signWith: stranger })).status).toBe(401);
    expect((await paymentRow(ctx, session.id)).status).toBe('refund_pending');

    expect((await chip.sendRefundWebhook(payment.gatewaySessionId!, url, { amount: 7500 })).status).toBe(200);
    expect(await paymentRow(ctx, session.id)).toMatchObject({ status: 'refunded', bookingStatus: 'cancelled' });
    expect((await eventsOf(ctx, session.id)).map((e) => e.kind)).toContain('refunded');
  });
});
