import type { PaymentMethod } from 'shared-api/contract';

/** What a gateway says about one checkout session. */
export type GatewayState = 'pending' | 'paid' | 'failed' | 'cancelled' | 'expired' | 'refunded';

export type CreateSessionInput = {
  /** Integer sen. */
  amountSen: number;
  currency: 'MYR';
  /** Our payment reference: shown by the gateway and echoed in its callbacks. */
  reference: string;
  description: string;
  customer: { email: string; fullName: string; phone: string };
  allowedMethods: PaymentMethod[];
  /** The gateway must refuse payment after this instant (the slot hold ends then). */
  expiresAt: Date;
  successUrl: string;
  failureUrl: string;
  cancelUrl: string;
  callbackUrl: string;
};

export type CheckoutSession = { sessionId: string; checkoutUrl: string; expiresAt: Date };

/** A verified gateway notification, reduced to what the payment service needs. */
export type GatewayEvent = {
  /** Unique per notification (a replay carries the same id). */
  eventId: string;
  sessionId: string;
  reference: string | null;
  state: GatewayState;
  method: string | null;
  /** What the gateway says was paid, in sen (null when it does not say). */
  amountSen: number | null;
};

/**
 * A verified webhook delivery (a notification the gateway sends to a webhook set up on its side, not the session's own
 * callback): a session's state as a callback gives it, money the bank took back, or an event this product does not use.
 */
export type WebhookNotice =
  | ({ kind: 'state' } & GatewayEvent)
  | {
      kind: 'chargeback';
      eventId: string;
      sessionId: string;
      /** What the bank took back, in sen (null when the gateway does not say). */
      amountSen: number | null;
      /** When the gateway says it happened. */
      at: Date;
    }
  | { kind: 'ignored'; eventType: string };

export type SessionStatus = {
  state: GatewayState;
  method: string | null;
  amountSen: number | null;
  /** The gateway accepted a refund and is still finishing it (CHIP's pending_refund): do not ask for it again. */
  refundPending?: boolean;
};

/** A refund the gateway took: `settled` false when it answered that the refund is still being processed. */
export type RefundResult = { refundId: string; settled: boolean };

export class SignatureError extends Error {}

export class GatewayError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

/** One payment gateway (chosen by PAYMENT_GATEWAY). No method is ever awaited inside a database transaction. */
export interface PaymentGateway {
  readonly name: 'sandbox' | 'chip';
  createSession(input: CreateSessionInput): Promise<CheckoutSession>;
  /** Checks the signature over the raw bytes (and freshness when the gateway signs a timestamp); throws SignatureError. */
  verifyCallback(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<GatewayEvent>;
  /** A webhook delivery, checked with the webhook's own key and read by its event type; absent: the gateway has none. */
  verifyWebhook?(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<WebhookNotice>;
  fetchStatus(sessionId: string): Promise<SessionStatus>;
  /** Best effort: true when the gateway will no longer accept payment for this session. */
  cancel(sessionId: string): Promise<boolean>;
  /**
   * Gives back `amountSen` (at most what was paid). Resolves with the gateway's refund id and whether the refund is
   * done (settled) or still being processed (a later status or a signed callback says refunded).
   */
  refund(sessionId: string, amountSen: number): Promise<RefundResult>;
  /** True when the gateway answers. */
  ping(): Promise<boolean>;
  close?(): void;
}
