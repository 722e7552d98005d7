import { createVerify } from 'node:crypto';
import type { PaymentMethod } from 'shared-api/contract';
import {
  GatewayError,
  SignatureError,
  type CheckoutSession,
  type CreateSessionInput,
  type GatewayEvent,
  type GatewayState,
  type PaymentGateway,
  type RefundResult,
  type SessionStatus,
  type WebhookNotice,
} from './types';

export type ChipOptions = {
  apiUrl: string;
  brandId: string;
  secretKey: string;
  /** PEM; when absent it is fetched once from CHIP's GET /public_key/. */
  publicKey?: string;
  /**
   * PEM of the webhook's own key: the `public_key` in CHIP's answer to POST /webhooks/ (or shown with the webhook in
   * CHIP's dashboard). Deliveries to a webhook are signed with it, not with the company key.
   */
  webhookPublicKey?: string;
  timeoutMs?: number;
};

/** Our four method families as CHIP's payment_method_whitelist names. */
export const CHIP_METHODS: Record<PaymentMethod, string[]> = {
  fpx: ['fpx'],
  card: ['visa', 'mastercard', 'maestro'],
  ewallet: ['razer_tng', 'razer_grabpay', 'razer_shopeepay', 'razer_boost'],
  duitnow_qr: ['duitnow_qr'],
};

const familyOf = (chipMethod: string | null | undefined): string | null => {
  if (!chipMethod) return null;
  for (const [family, names] of Object.entries(CHIP_METHODS)) if (names.includes(chipMethod)) return family;
  return chipMethod;
};

/** CHIP purchase statuses reduced to ours (unknown or in-between ones stay pending). */
export function chipState(status: string): GatewayState {
  switch (status) {
    case 'paid':
    case 'cleared':
    case 'settled':
      return 'paid';
    case 'error':
    case 'blocked':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    case 'expired':
    case 'overdue':
      return 'expired';
    case 'refunded':
      return 'refunded';
    default:
      return 'pending';
  }
}

type ChipPurchase = {
  id: string;
  status: string;
  reference?: string | null;
  checkout_url?: string;
  due?: number | null;
  event_type?: string;
  updated_on?: number;
  transaction_data?: { payment_method?: string | null } | null;
  purchase?: { total?: number } | null;
  /** Set once paid: what the payer actually paid, in sen. */
  payment?: { amount?: number } | null;
};

/** What a callback or webhook body may be: a Purchase, or a Payment (payment.refunded, payment.charged_back). */
type ChipObject = ChipPurchase & {
  /** 'purchase' or 'payment'. */
  type?: string;
  created_on?: number;
  /** A Payment's purchase. */
  related_to?: { type?: string; id?: string } | string | null;
};

const verifies = (rawBody: Buffer, signature: string, pem: string): boolean => {
  try {
    const verifier = createVerify('RSA-SHA256');
    verifier.update(rawBody);
    return verifier.verify(pem, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
};

/** The body, once X-Signature verifies over its raw bytes with `pem`; anything else is a SignatureError (401, nothing changes). */
function verifiedBody(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, pem: string, keyName: string): ChipObject {
  const raw = headers['x-signature'];
  const signature = Array.isArray(raw) ? raw[0] : raw;
  if (!signature) throw new SignatureError('missing X-Signature');
  if (!verifies(rawBody, signature, pem)) throw new SignatureError(`X-Signature does not verify with ${keyName}`);
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new SignatureError('body is not JSON');
  }
  if (!body || typeof body !== 'object' || typeof (body as ChipObject).id !== 'string') throw new SignatureError('body lacks id');
  return body as ChipObject;
}

/** Purchase events a webhook may carry that change a payment's state; each is read by the Purchase's status. */
const PURCHASE_EVENTS = new Set(['purchase.paid', 'purchase.payment_failure', 'purchase.cancelled', 'purchase.pending_refund']);

/** A Purchase as a state event: CHIP sends one delivery per purchase event, so its type and status name it. */
function purchaseEvent(purchase: ChipObject): GatewayEvent {
  if (typeof purchase.status !== 'string') throw new SignatureError('Purchase lacks status');
  return {
    eventId: `${purchase.id}:${purchase.event_type ?? 'purchase'}:${purchase.status}`,
    sessionId: purchase.id,
    reference: purchase.reference ?? null,
    state: chipState(purchase.status),
    method: familyOf(purchase.transaction_data?.payment_method),
    amountSen: paidAmount(purchase),
  };
}

/** A Payment's link to its Purchase: `{type, id}`, or the purchase's id or address as a string. */
function relatedPurchaseId(related: ChipObject['related_to']): string | null {
  if (typeof related === 'string') return related.split('/').filter(Boolean).pop() ?? null;
  return typeof related?.id === 'string' && related.id ? related.id : null;
}

/** What CHIP says was paid: the payment's amount, else (an older payload) the purchase total. */
const paidAmount = (purchase: ChipPurchase): number | null => purchase.payment?.amount ?? purchase.purchase?.total ?? null;

/** CHIP Collect over plain fetch: purchases, status, cancel, refund; callbacks verified with RSA-SHA256 (X-Signature). */
export class ChipGateway implements PaymentGateway {
  readonly name = 'chip' as const;
  private publicKey: string | undefined;

  constructor(private readonly options: ChipOptions) {
    this.publicKey = options.publicKey;
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.options.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.options.secretKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 8_000),
      });
    } catch (err) {
      throw new GatewayError(`CHIP ${method} ${path} did not answer: ${(err as Error).message}`, err);
    }
    const text = await res.text();
    if (!res.ok) throw new GatewayError(`CHIP ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new GatewayError(`CHIP ${method} ${path} answered non-JSON`, err);
    }
  }

  async createSession(input: CreateSessionInput): Promise<CheckoutSession> {
    const purchase = await this.call<ChipPurchase>('POST', '/purchases/', {
      brand_id: this.options.brandId,
      client: { email: input.customer.email, full_name: input.customer.fullName, phone: input.customer.phone },
      purchase: {
        currency: input.currency,
        products: [{ name: input.description, price: input.amountSen, quantity: 1 }],
        due_strict: true,
      },
      due: Math.floor(input.expiresAt.getTime() / 1000),
      reference: input.reference,
      success_redirect: input.successUrl,
      failure_redirect: input.failureUrl,
      cancel_redirect: input.cancelUrl,
      success_callback: input.callbackUrl,
      payment_method_whitelist: input.allowedMethods.flatMap((m) => CHIP_METHODS[m]),
    });
    if (!purchase.id || !purchase.checkout_url) throw new GatewayError('CHIP purchase lacks id or checkout_url');
    return { sessionId: purchase.id, checkoutUrl: purchase.checkout_url, expiresAt: input.expiresAt };
  }

  private async key(): Promise<string> {
    if (!this.publicKey) this.publicKey = await this.call<string>('GET', '/public_key/');
    return this.publicKey;
  }

  /** The success callback: a Purchase, signed with the company key (GET /public_key/). */
  async verifyCallback(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<GatewayEvent> {
    const purchase = verifiedBody(rawBody, headers, await this.key(), 'the company key');
    if (purchase.type === 'payment') throw new SignatureError('a success callback carries a Purchase, not a Payment');
    return purchaseEvent(purchase);
  }

  /**
   * A delivery to a webhook made in CHIP's dashboard (or by POST /webhooks/): signed with that webhook's own key
   * (CHIP_WEBHOOK_PUBLIC_KEY), read by its event_type: Purchase events by status, Payment events by related_to.
   */
  async verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<WebhookNotice> {
    if (!this.options.webhookPublicKey) throw new SignatureError('no webhook key is set (CHIP_WEBHOOK_PUBLIC_KEY)');
    const body = verifiedBody(rawBody, headers, this.options.webhookPublicKey, "the webhook's key");
    const eventType = typeof body.event_type === 'string' ? body.event_type : '';
    if (PURCHASE_EVENTS.has(eventType)) {
      if (body.type === 'payment') throw new SignatureError(`${eventType} carries a Purchase, not a Payment`);
      return { kind: 'state', ...purchaseEvent(body) };
    }
    if (eventType !== 'payment.refunded' && eventType !== 'payment.charged_back') return { kind: 'ignored', eventType: eventType || '(none)' };
    if (body.type !== 'payment') throw new SignatureError(`${eventType} carries a Payment object`);
    const sessionId = relatedPurchaseId(body.related_to);
    if (!sessionId) throw new SignatureError(`${eventType} lacks related_to (the purchase)`);
    const eventId = `${sessionId}:${eventType}:${body.id}`;
    const amountSen = typeof body.payment?.amount === 'number' ? body.payment.amount : null;
    if (eventType === 'payment.charged_back') {
      const at = typeof body.created_on === 'number' ? new Date(body.created_on * 1000) : new Date();
      return { kind: 'chargeback', eventId, sessionId, amountSen, at };
    }
    return { kind: 'state', eventId, sessionId, reference: null, state: 'refunded', method: null, amountSen };
  }

  async fetchStatus(sessionId: string): Promise<SessionStatus> {
    const purchase = await this.call<ChipPurchase>('GET', `/purchases/${encodeURIComponent(sessionId)}/`);
    let state = chipState(purchase.status);
    // due_strict: an unpaid purchase past its due time can no longer be paid.
    if (state === 'pending' && purchase.due && purchase.due * 1000 <= Date.now()) state = 'expired';
    return {
      state,
      method: familyOf(purchase.transaction_data?.payment_method),
      amountSen: paidAmount(purchase),
      refundPending: purchase.status === 'pending_refund',
    };
  }

  async cancel(sessionId: string): Promise<boolean> {
    try {
      const purchase = await this.call<ChipPurchase>('POST', `/purchases/${encodeURIComponent(sessionId)}/cancel/`);
      return chipState(purchase.status) !== 'paid';
    } catch {
      const status = await this.fetchStatus(sessionId);
      return status.state !== 'paid';
    }
  }

  /**
   * CHIP answers a finished refund with the refund's Payment object; one the acquirer is slow with, with the Purchase
   * in status pending_refund (a signed payment.refunded callback follows, and the purchase's status turns refunded).
   */
  async refund(sessionId: string, amountSen: number): Promise<RefundResult> {
    const answer = await this.call<{ id: string; type?: string; status?: string }>('POST', `/purchases/${encodeURIComponent(sessionId)}/refund/`, {
      amount: amountSen,
    });
    const pending = answer.status === 'pending_refund' || (answer.type === 'purchase' && answer.status !== 'refunded');
    return { refundId: answer.id, settled: !pending };
  }

  async ping(): Promise<boolean> {
    await this.call('GET', `/payment_methods/?brand_id=${encodeURIComponent(this.options.brandId)}&currency=MYR`);
    return true;
  }
}
