import { createSign, generateKeyPairSync } from 'node:crypto';
import { ChipGateway } from '../../src/payments/gateways/chip';
import { SignatureError } from '../../src/payments/gateways/types';

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const company = pair();
const webhook = pair();
const stranger = pair();
const pem = (k: typeof company) => k.publicKey.export({ type: 'spki', format: 'pem' }).toString();

const signed = (body: unknown, key: typeof company) => {
  const raw = Buffer.from(JSON.stringify(body));
  const signer = createSign('RSA-SHA256');
  signer.update(raw);
  return { raw, headers: { 'x-signature': signer.sign(key.privateKey).toString('base64') } };
};

const gateway = new ChipGateway({ apiUrl: 'http://chip.invalid', brandId: 'b', secretKey: 's', publicKey: pem(company), webhookPublicKey: pem(webhook) });

// Shaped as CHIP documents them: a Purchase (type purchase, its status, the payment's amount in `payment`) ...
const paid = { id: 'pur-1', type: 'purchase', event_type: 'purchase.paid', status: 'paid', reference: 'ref-1', payment: { amount: 7500 } };
// ... and a Payment object (payment.refunded, payment.charged_back): its own id, the amount in `payment`, the purchase in related_to.
const paymentObject = (eventType: string, id: string, amount: number) => ({
  id,
  type: 'payment',
  event_type: eventType,
  payment: { is_outgoing: true, payment_type: 'refund', amount, currency: 'MYR' },
  related_to: { type: 'purchase', id: 'pur-1' },
  created_on: 1_900_000_000,
});
const refunded = paymentObject('payment.refunded', 'pay-9', 2500);
const chargedBack = paymentObject('payment.charged_back', 'pay-10', 7500);

describe('CHIP success callback: a Purchase, signed with the company key only', () => {
  it('reads the Purchase by its status', async () => {
    const { raw, headers } = signed(paid, company);
    await expect(gateway.verifyCallback(raw, headers)).resolves.toEqual({
      eventId: 'pur-1:purchase.paid:paid',
      sessionId: 'pur-1',
      reference: 'ref-1',
      state: 'paid',
      method: null,
      amountSen: 7500,
    });
  });

  it("refuses it signed with the webhook's key or a stranger's, and a Payment object even with the company key", async () => {
    for (const key of [webhook, stranger]) {
      const { raw, headers } = signed(paid, key);
      await expect(gateway.verifyCallback(raw, headers)).rejects.toThrow(new SignatureError('X-Signature does not verify with the company key'));
    }
    const { raw, headers } = signed(refunded, company);
    await expect(gateway.verifyCallback(raw, headers)).rejects.toBeInstanceOf(SignatureError);
  });
});

describe("CHIP webhook deliveries: signed with the webhook's own key, read by event_type", () => {
  it('reads payment.refunded (a Payment object) as its purchase refunded, by the amount in payment', async () => {
    const { raw, headers } = signed(refunded, webhook);
    await expect(gateway.verifyWebhook(raw, headers)).resolves.toEqual({
      kind: 'state',
      eventId: 'pur-1:payment.refunded:pay-9',
      sessionId: 'pur-1',
      reference: null,
      state: 'refunded',
      method: null,
      amountSen: 2500,
    });
  });

  it('reads payment.charged_back as a chargeback of its purchase, with the amount and the time CHIP gives', async () => {
    const { raw, headers } = signed(chargedBack, webhook);
    await expect(gateway.verifyWebhook(raw, headers)).resolves.toEqual({
      kind: 'chargeback',
      eventId: 'pur-1:payment.charged_back:pay-10',
      sessionId: 'pur-1',
      amountSen: 7500,
      at: new Date(1_900_000_000 * 1000),
    });
  });

  it('reads purchase.pending_refund and purchase.paid (Purchases) by their status', async () => {
    const pending = signed({ ...paid, event_type: 'purchase.pending_refund', status: 'pending_refund' }, webhook);
    await expect(gateway.verifyWebhook(pending.raw, pending.headers)).resolves.toMatchObject({ kind: 'state', sessionId: 'pur-1', state: 'pending', eventId: 'pur-1:purchase.pending_refund:pending_refund' });
    const paidHook = signed(paid, webhook);
    // The same id as the success callback's: whichever comes second is a replay.
    await expect(gateway.verifyWebhook(paidHook.raw, paidHook.headers)).resolves.toMatchObject({ kind: 'state', state: 'paid', eventId: 'pur-1:purchase.paid:paid' });
  });

  it('acknowledges an event type this product does not use, once it verifies', async () => {
    const { raw, headers } = signed({ id: 'po-1', type: 'payout', event_type: 'payout.success', status: 'success' }, webhook);
    await expect(gateway.verifyWebhook(raw, headers)).resolves.toEqual({ kind: 'ignored', eventType: 'payout.success' });
  });

  it("refuses a delivery signed with the company key or a stranger's, whatever its event type", async () => {
    for (const body of [paid, refunded, chargedBack]) {
      for (const key of [company, stranger]) {
        const { raw, headers } = signed(body, key);
        await expect(gateway.verifyWebhook(raw, headers)).rejects.toThrow(new SignatureError("X-Signature does not verify with the webhook's key"));
      }
    }
  });

  it('refuses a Payment event that names no purchase, and one shaped as the wrong object for its type', async () => {
    const orphan = signed({ ...refunded, related_to: null }, webhook);
    await expect(gateway.verifyWebhook(orphan.raw, orphan.headers)).rejects.toThrow(new SignatureError('payment.refunded lacks related_to (the purchase)'));
    const purchaseAsRefund = signed({ ...paid, event_type: 'payment.refunded' }, webhook);
    await expect(gateway.verifyWebhook(purchaseAsRefund.raw, purchaseAsRefund.headers)).rejects.toThrow(new SignatureError('payment.refunded carries a Payment object'));
  });

  it('refuses every delivery when no webhook key is configured', async () => {
    const companyOnly = new ChipGateway({ apiUrl: 'http://chip.invalid', brandId: 'b', secretKey: 's', publicKey: pem(company) });
    const { raw, headers } = signed(refunded, webhook);
    await expect(companyOnly.verifyWebhook(raw, headers)).rejects.toThrow(new SignatureError('no webhook key is set (CHIP_WEBHOOK_PUBLIC_KEY)'));
  });
});
