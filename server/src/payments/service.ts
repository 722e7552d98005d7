import { and, eq } from 'drizzle-orm';
import { ErrorCode, type PaymentSession, type PaymentStatusResult } from 'shared-api/contract';
import type { Db } from '../base/db/connection';
import type { JobEngine } from '../base/jobs/engine';
import { AppError } from '../base/errors';
import { SignatureError, type GatewayEvent, type PaymentGateway } from './gateways/types';
import type { PaymentsConfig } from './config';
import { PaymentInitiator, type InitiateInput } from './initiate';
import { holdsPaymentKey } from './key';
import { presentPayment } from './present';
import { PaymentReconciliation } from './reconcile';
import { Refunds } from './refunds';
import { findPayment, isOpen, PaymentStates, type Log } from './state';
import { PaymentText } from '../mail';
import { payments, type PaymentRow } from './tables';

export type { InitiateInput } from './initiate';

export type PaymentServiceOptions = {
  /** Minimum time between two gateway status calls for one payment (status polls and reconcilers alike). */
  statusFreshMs?: number;
};

/**
 * What the routes and the reconciler use: initiation (initiate.ts), state changes (state.ts), refunds (refunds.ts), reconciliation
 * with the gateway (reconcile.ts) and the status answer (present.ts), plus the callback and cancel that combine them.
 */
export class PaymentService {
  private readonly initiator: PaymentInitiator;
  private readonly states: PaymentStates;
  private readonly reconciliation: PaymentReconciliation;
  /** The `refund` queue: its handler calls the gateway; requests come after the change that owes the money commits. */
  readonly refunds: Refunds;

  constructor(
    private readonly db: Db,
    readonly gateway: PaymentGateway,
    config: PaymentsConfig,
    private readonly log: Log,
    jobs: JobEngine,
    /** Called after a booking's or a refund's mails commit (wakes the mail worker). */
    onMailQueued: () => void = () => {},
    options: PaymentServiceOptions = {},
  ) {
    this.initiator = new PaymentInitiator(db, gateway, config, log);
    this.refunds = new Refunds(db, gateway, jobs, log);
    this.states = new PaymentStates(db, gateway, config, log, onMailQueued, (id) => this.refunds.request(id));
    this.reconciliation = new PaymentReconciliation(db, gateway, this.states, log, options.statusFreshMs);
  }

  /** Holds the slot, writes the payment and opens the gateway's checkout session (payments/initiate.ts). */
  initiate(input: InitiateInput): Promise<PaymentSession> {
    return this.initiator.initiate(input);
  }

  reconcile(p: PaymentRow): Promise<PaymentRow> {
    return this.reconciliation.reconcile(p);
  }

  claimDue(limit: number, passStart?: Date): Promise<PaymentRow[]> {
    return this.reconciliation.claimDue(limit, passStart);
  }

  /** A gateway callback: signature on the raw bytes (401 when bad or stale), then `applyState` with the event recorded once. */
  async handleCallback(rawBody: Buffer, headers: Record<string, string | string[] | undefined>) {
    let event;
    try {
      event = await this.gateway.verifyCallback(rawBody, headers);
    } catch (err) {
      if (err instanceof SignatureError) throw new AppError(401, ErrorCode.BAD_SIGNATURE, `Callback refused: ${err.message}.`);
      throw err;
    }
    return this.applyEvent(event);
  }

  /**
   * A webhook delivery (CHIP's webhooks, signed with the webhook's own key): a state as a callback gives it, a chargeback
   * noted on the payment (the booking stays), or an event type this product does not use (acknowledged and logged).
   */
  async handleWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>) {
    if (!this.gateway.verifyWebhook) throw new AppError(404, ErrorCode.NOT_FOUND, `The ${this.gateway.name} gateway sends no webhooks.`);
    let notice;
    try {
      notice = await this.gateway.verifyWebhook(rawBody, headers);
    } catch (err) {
      if (err instanceof SignatureError) throw new AppError(401, ErrorCode.BAD_SIGNATURE, `Webhook refused: ${err.message}.`);
      throw err;
    }
    if (notice.kind === 'ignored') {
      this.log.info({ gateway: this.gateway.name, eventType: notice.eventType }, 'payment: webhook event type not used; ignored');
      return { received: true, applied: false, duplicate: false };
    }
    if (notice.kind === 'state') return this.applyEvent(notice);
    const p = await this.paymentOfSession(notice.sessionId, 'chargeback');
    if (!p) return { received: true, applied: false, duplicate: false };
    const result = await this.states.recordChargeback(p.id, { eventId: notice.eventId, amountSen: notice.amountSen, at: notice.at });
    return { received: true, applied: !result.duplicate, duplicate: result.duplicate };
  }

  /** Only the session id the gateway signed names the payment; a reference alone could point an event at another one. */
  private async paymentOfSession(sessionId: string, what: string): Promise<PaymentRow | undefined> {
    const [p] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.gateway, this.gateway.name), eq(payments.gatewaySessionId, sessionId)));
    if (!p) this.log.warn({ gateway: this.gateway.name, sessionId, what }, 'payment: gateway event for an unknown session ignored');
    return p;
  }

  private async applyEvent(event: GatewayEvent) {
    const p = await this.paymentOfSession(event.sessionId, event.state);
    if (!p) return { received: true, applied: false, duplicate: false };
    const result = await this.states.applyState(p.id, event.state, {
      method: event.method,
      amountSen: event.amountSen,
      event: { id: event.eventId, kind: event.state },
    });
    return { received: true, applied: !result.duplicate, duplicate: result.duplicate };
  }

  /**
   * Only for the caller holding the payment's key (its hold token): a payment id is in the gateway's failure URL and a
   * reference on every receipt and mail, so neither shows the caller owns the payment. Anyone else: 403, nothing changes.
   */
  async cancel(paymentId: string, key: string | undefined): Promise<PaymentRow> {
    const p = await findPayment(this.db, paymentId, 'id');
    if (!holdsPaymentKey(p, key)) throw new AppError(403, ErrorCode.FORBIDDEN, PaymentText.notYours);
    if (p.status === 'completed') throw new AppError(409, ErrorCode.VALIDATION_ERROR, PaymentText.alreadyPaid);
    if (!isOpen(p.status)) return p;
    if (p.gatewaySessionId) {
      const closed = await this.gateway.cancel(p.gatewaySessionId).catch(() => false);
      if (!closed) {
        // Already paid at the gateway: finish it instead of cancelling.
        const after = await this.reconcile(p);
        if (after.status === 'completed') throw new AppError(409, ErrorCode.VALIDATION_ERROR, PaymentText.alreadyPaid);
        if (!isOpen(after.status)) return after;
      }
    }
    return (await this.states.applyState(p.id, 'cancelled')).payment;
  }

  /**
   * The status answer; the gateway is asked first only when the payment is due a check (payments/reconcile.ts). With
   * the payment's key the whole receipt, without it only what a stranger may know (payments/present.ts).
   */
  async status(idOrReference: string, by: 'id' | 'reference' | 'either', key: string | undefined): Promise<{ result: PaymentStatusResult; message: string }> {
    const p = await this.reconciliation.refreshForStatus(await findPayment(this.db, idOrReference, by));
    return this.present(p, holdsPaymentKey(p, key));
  }

  /** POST /api/payment/verify: the status answer, refused (400) when `bookingId` names neither the payment's slot nor its reference. */
  async verify(paymentId: string, bookingId: string | number | undefined, key: string | undefined): Promise<{ result: PaymentStatusResult; message: string }> {
    const p = await this.reconciliation.refreshForStatus(await findPayment(this.db, paymentId, 'either'));
    if (bookingId !== undefined && bookingId !== '' && String(bookingId) !== String(p.slotId) && String(bookingId) !== p.reference)
      throw new AppError(400, ErrorCode.VALIDATION_ERROR, PaymentText.bookingMismatch);
    return this.present(p, holdsPaymentKey(p, key));
  }

  present(p: PaymentRow, owner: boolean): Promise<{ result: PaymentStatusResult; message: string }> {
    return presentPayment(this.db, p, owner);
  }
}
