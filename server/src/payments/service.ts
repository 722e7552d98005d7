import { and, eq } from 'drizzle-orm';
import { ErrorCode, type PaymentSession, type PaymentStatusResult } from 'shared-api/contract';
import type { Db } from '../db/connection';
import { AppError } from '../errors';
import { SignatureError, type PaymentGateway } from '../gateways/types';
import type { PaymentsConfig } from './config';
import { PaymentInitiator, type InitiateInput } from './initiate';
import { presentPayment } from './present';
import { PaymentReconciliation } from './reconcile';
import { findPayment, isOpen, PaymentStates, type Log } from './state';
import { PaymentText } from './texts';
import { payments, type PaymentRow } from './tables';

export type { InitiateInput } from './initiate';
export { PaymentText } from './texts';

export type PaymentServiceOptions = {
  /** Minimum time between two gateway status calls for one payment (status polls and reconcilers alike). */
  statusFreshMs?: number;
};

/**
 * What the routes and the reconciler use: initiation (initiate.ts), state changes and refunds (state.ts), reconciliation
 * with the gateway (reconcile.ts) and the status answer (present.ts), plus the callback and cancel that combine them.
 */
export class PaymentService {
  private readonly initiator: PaymentInitiator;
  private readonly states: PaymentStates;
  private readonly reconciliation: PaymentReconciliation;

  constructor(
    private readonly db: Db,
    readonly gateway: PaymentGateway,
    config: PaymentsConfig,
    private readonly log: Log,
    /** Called after a booking's or a refund's mails commit (wakes the mail worker). */
    onMailQueued: () => void = () => {},
    options: PaymentServiceOptions = {},
  ) {
    this.initiator = new PaymentInitiator(db, gateway, config, log);
    this.states = new PaymentStates(db, gateway, config, log, onMailQueued);
    this.reconciliation = new PaymentReconciliation(db, gateway, this.states, log, options.statusFreshMs);
  }

  /** Holds the slot, writes the payment and opens the gateway's checkout session (payments/initiate.ts). */
  initiate(input: InitiateInput): Promise<PaymentSession> {
    return this.initiator.initiate(input);
  }

  refund(p: PaymentRow): Promise<PaymentRow> {
    return this.states.refund(p);
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
    // Only the session id the gateway signed names the payment; a reference alone could point an event at another one.
    const [p] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.gateway, this.gateway.name), eq(payments.gatewaySessionId, event.sessionId)));
    if (!p) {
      this.log.warn({ gateway: this.gateway.name, sessionId: event.sessionId, state: event.state }, 'payment: callback for an unknown session ignored');
      return { received: true, applied: false, duplicate: false };
    }
    const result = await this.states.applyState(p.id, event.state, {
      method: event.method,
      amountSen: event.amountSen,
      event: { id: event.eventId, kind: event.state },
      awaitRefund: false,
    });
    return { received: true, applied: !result.duplicate, duplicate: result.duplicate };
  }

  /** By payment id only: the reference is printed on receipts and mails, so it does not show the caller owns the payment. */
  async cancel(paymentId: string): Promise<PaymentRow> {
    const p = await findPayment(this.db, paymentId, 'id');
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

  /** The status answer; the gateway is asked first only when the payment is due a check (payments/reconcile.ts). */
  async status(idOrReference: string, by: 'id' | 'reference' | 'either'): Promise<{ result: PaymentStatusResult; message: string }> {
    return this.present(await this.reconciliation.refreshForStatus(await findPayment(this.db, idOrReference, by)));
  }

  present(p: PaymentRow): Promise<{ result: PaymentStatusResult; message: string }> {
    return presentPayment(this.db, p);
  }
}
