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

const paid = { id: 'pur-1', type: 'purchase', event_type: 'purchase.paid', status: 'paid', reference: 'ref-1', payment: { amount: 7500 } };
// A refund's Payment object as CHIP's payment.refunded webhook sends it: the purchase is in related_to.
const refunded = {
  id: 'pay-9',
  type: 'payment',
  event_type: 'payment.refunded',
  payment_type: 'refund',
  amount: 2500,
  currency: 'MYR',
  related_to: { type: 'purchase', id: 'pur-1' },
};

describe('CHIP deliveries: the success callback with the company key, webhooks with the webhook key', () => {
  it('accepts the success callback signed with the company key', async () => {
    const { raw, headers } = signed(paid, company);
    await expect(gateway.verifyCallback(raw, headers)).resolves.toMatchObject({ sessionId: 'pur-1', state: 'paid', amountSen: 7500 });
  });

  it('reads payment.refunded (a Payment object) signed with the webhook key as the purchase refunded by its amount', async () => {
    const { raw, headers } = signed(refunded, webhook);
    await expect(gateway.verifyCallback(raw, headers)).resolves.toEqual({
      eventId: 'pur-1:payment.refunded:pay-9',
      sessionId: 'pur-1',
      reference: null,
      state: 'refunded',
      method: null,
      amountSen: 2500,
    });
  });

  it('reads purchase.pending_refund (a Purchase) from a webhook as not yet refunded', async () => {
    const { raw, headers } = signed({ ...paid, event_type: 'purchase.pending_refund', status: 'pending_refund' }, webhook);
    await expect(gateway.verifyCallback(raw, headers)).resolves.toMatchObject({ sessionId: 'pur-1', state: 'pending' });
  });

  it('refuses a body signed with any other key', async () => {
    for (const body of [paid, refunded]) {
      const { raw, headers } = signed(body, stranger);
      await expect(gateway.verifyCallback(raw, headers)).rejects.toBeInstanceOf(SignatureError);
    }
  });

  it('refuses a webhook delivery when no webhook key is configured', async () => {
    const companyOnly = new ChipGateway({ apiUrl: 'http://chip.invalid', brandId: 'b', secretKey: 's', publicKey: pem(company) });
    const { raw, headers } = signed(refunded, webhook);
    await expect(companyOnly.verifyCallback(raw, headers)).rejects.toBeInstanceOf(SignatureError);
  });
});
