import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Purchase = {
  id: string;
  status: string;
  reference: string;
  checkout_url: string;
  due: number;
  brand_id: string;
  client: { email: string; full_name: string; phone: string };
  purchase: { currency: string; products: { name: string; price: number; quantity?: number }[]; due_strict: boolean; total: number };
  success_redirect: string;
  failure_redirect: string;
  cancel_redirect: string;
  success_callback: string;
  payment_method_whitelist: string[];
  transaction_data: { payment_method: string | null };
  /** CHIP's PaymentDetails, set when the purchase is paid: `amount` is what the payer paid. */
  payment: { is_outgoing: boolean; payment_type: 'purchase'; amount: number; currency: string; net_amount: number; fee_amount: number; paid_on: number } | null;
  event_type?: string;
};

/**
 * A local CHIP Collect: the purchase endpoints our adapter calls, with its own RSA key pair for callbacks
 * (X-Signature: base64 RSA PKCS#1 v1.5 over SHA-256 of the raw body), as CHIP documents them.
 */
export async function startFakeChip(options: { secretKey: string; brandId: string }) {
  /** While true, every refund is refused as CHIP refuses one the acquirer rejects (400 purchase_refund_error). */
  let refundsFail = false;
  /** While true, a refund is taken but left processing, as CHIP answers one the acquirer is slow with (pending_refund). */
  let refundsPend = false;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  /** The webhook's own key pair (CHIP gives a webhook its own public_key; its deliveries are signed with it). */
  const webhookKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const webhookPublicPem = webhookKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const purchases = new Map<string, Purchase>();
  const requests: { method: string; path: string; body: unknown; at: number }[] = [];
  const refunds: { purchaseId: string; amount: number }[] = [];
  let base = '';

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const body = raw ? JSON.parse(raw) : undefined;
      const path = (req.url ?? '').replace(/^\/api\/v1/, '');
      requests.push({ method: req.method ?? '', path, body, at: Date.now() });
      if (req.headers.authorization !== `Bearer ${options.secretKey}`) return send(401, { detail: 'Invalid token.' });
      let m: RegExpExecArray | null;
      if (req.method === 'GET' && path === '/public_key/') return send(200, publicPem);
      if (req.method === 'GET' && path.startsWith('/payment_methods/')) return send(200, { available_payment_methods: ['fpx', 'visa', 'duitnow_qr'] });
      if (req.method === 'POST' && path === '/purchases/') {
        if (body.brand_id !== options.brandId) return send(400, { brand_id: ['Invalid brand'] });
        const id = randomUUID();
        const p: Purchase = {
          ...body,
          id,
          status: 'created',
          checkout_url: `${base}/p/${id}/`,
          purchase: { ...body.purchase, total: body.purchase.products.reduce((s: number, x: { price: number; quantity?: number }) => s + x.price * (x.quantity ?? 1), 0) },
          transaction_data: { payment_method: null },
          payment: null,
        };
        purchases.set(id, p);
        return send(201, p);
      }
      if ((m = /^\/purchases\/([\w-]+)\/$/.exec(path)) && req.method === 'GET') {
        const p = purchases.get(m[1]);
        return p ? send(200, p) : send(404, { detail: 'Not found.' });
      }
      if ((m = /^\/purchases\/([\w-]+)\/cancel\/$/.exec(path)) && req.method === 'POST') {
        const p = purchases.get(m[1]);
        if (!p) return send(404, { detail: 'Not found.' });
        if (p.status !== 'created') return send(400, { detail: `Cannot cancel a ${p.status} purchase.` });
        p.status = 'cancelled';
        return send(200, p);
      }
      if ((m = /^\/purchases\/([\w-]+)\/refund\/$/.exec(path)) && req.method === 'POST') {
        const p = purchases.get(m[1]);
        if (!p || p.status !== 'paid' || !p.payment) return send(400, { detail: 'Only a paid purchase can be refunded.' });
        const amount = body?.amount ?? p.payment.amount;
        if (amount > p.payment.amount) return send(400, { amount: ['Refund amount exceeds the amount paid.'] });
        if (refundsFail) return send(400, { __all__: [{ message: 'Refund failed on the acquirer side.', code: 'purchase_refund_error' }] });
        refunds.push({ purchaseId: p.id, amount });
        if (refundsPend) {
          // The Purchase itself, in pending_refund: the payment.refunded callback follows when the acquirer is done.
          p.status = 'pending_refund';
          return send(200, { ...p, type: 'purchase' });
        }
        p.status = 'refunded';
        return send(200, { id: randomUUID(), type: 'payment', payment_type: 'refund', amount });
      }
      send(404, { detail: 'Not found.' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Signs a callback body with this fake's key (or another one, to test refusal). */
  const signBody = (body: string, key = privateKey) => sign('sha256', Buffer.from(body), key).toString('base64');

  return {
    apiUrl: `${base}/api/v1`,
    publicPem,
    webhookPublicPem,
    purchases,
    requests,
    refunds,
    signBody,
    /** Makes every refund stay pending_refund (true) until finishRefund, or settle at once again (false). */
    pendRefunds(pend: boolean) {
      refundsPend = pend;
    },
    /** The acquirer finishes a pending refund: the purchase turns refunded and CHIP posts the signed payment.refunded callback. */
    async finishRefund(id: string) {
      const p = purchases.get(id)!;
      p.status = 'refunded';
      p.event_type = 'payment.refunded';
      return this.resendCallback(id);
    },
    /** Posts the purchase as it is now, signed, to its callback (CHIP repeating a callback). */
    resendCallback(id: string) {
      const body = JSON.stringify(purchases.get(id)!);
      return fetch(purchases.get(id)!.success_callback, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signBody(body) }, body });
    },
    /** Posts `body` to `url` as a delivery to CHIP's webhook: signed with the webhook's own key (or `signWith`). */
    sendWebhook(url: string, body: object, signWith: KeyObject = webhookKeys.privateKey) {
      const raw = JSON.stringify(body);
      return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signBody(raw, signWith) }, body: raw });
    },
    /** A Purchase event as CHIP's webhook delivers it (e.g. purchase.pending_refund): the Purchase as it is now, with event_type. */
    purchaseEvent(id: string, eventType: string) {
      return { ...purchases.get(id)!, type: 'purchase', event_type: eventType };
    },
    /**
     * A Payment object as CHIP's payment.refunded / payment.charged_back webhook delivers it: its own id, the amount in
     * `payment`, and the original Purchase in `related_to` (a refund also turns the purchase refunded).
     */
    paymentEvent(id: string, eventType: 'payment.refunded' | 'payment.charged_back', amount: number, paymentId: string = randomUUID()) {
      if (eventType === 'payment.refunded') purchases.get(id)!.status = 'refunded';
      const outgoing = { is_outgoing: true, payment_type: eventType === 'payment.refunded' ? 'refund' : 'chargeback', amount, currency: 'MYR', net_amount: amount, fee_amount: 0 };
      return { id: paymentId, type: 'payment', event_type: eventType, payment: outgoing, related_to: { type: 'purchase', id }, created_on: Math.floor(Date.now() / 1000) };
    },
    /** The delivery CHIP makes when a refund is done: payment.refunded, the refund's Payment object, to `url`. */
    sendRefundWebhook(id: string, url: string, { amount, signWith = webhookKeys.privateKey }: { amount: number; signWith?: KeyObject }) {
      return this.sendWebhook(url, this.paymentEvent(id, 'payment.refunded', amount), signWith);
    },
    /** The company's own key (it signs success callbacks), to show a webhook delivery signed with it is refused. */
    companyKey: privateKey,
    /** Makes every refund fail (true) or succeed again (false). */
    failRefunds(fail: boolean) {
      refundsFail = fail;
    },
    /**
     * The visitor pays on CHIP's page: the purchase turns paid (`amount` paid, default its total) and, unless
     * `sendCallback` is false, CHIP posts the signed callback.
     */
    async pay(id: string, { method = 'fpx', sendCallback = true, signWith = privateKey, amount }: { method?: string; sendCallback?: boolean; signWith?: KeyObject; amount?: number } = {}) {
      const p = purchases.get(id)!;
      const paid = amount ?? p.purchase.total;
      p.status = 'paid';
      p.transaction_data = { payment_method: method };
      p.payment = { is_outgoing: false, payment_type: 'purchase', amount: paid, currency: 'MYR', net_amount: paid, fee_amount: 0, paid_on: Math.floor(Date.now() / 1000) };
      p.event_type = 'purchase.paid';
      if (!sendCallback) return null;
      const body = JSON.stringify(p);
      return fetch(p.success_callback, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signBody(body, signWith) }, body });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
