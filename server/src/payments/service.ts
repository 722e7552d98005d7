import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import {
  brand,
  BookingMessage,
  ErrorCode,
  HOLD_MINUTES,
  inMY,
  parseSlotTime,
  PAYMENT_METHODS,
  ValidationMessage,
  type PaymentMethod,
  type PaymentSession,
  type PaymentStatusResult,
  type VisitorDetails,
} from 'shared-api/contract';
import type { Db } from '../db/connection';
import { slots, type SlotRow } from '../db/schema';
import { AppError } from '../errors';
import { GatewayError, SignatureError, type GatewayState, type PaymentGateway } from '../gateways/types';
import { enqueueBookingMails, mailsForPayment, summariseMail } from '../mail/outbox';
import { formatRM } from '../mail/format';
import { bookSlot, findSlot, releaseHold, reserveSlot, type Hold, type Refusal } from '../slots/slot-service';
import type { PaymentsConfig } from './config';
import { renewHold } from './holds';
import { OPEN_STATUSES } from './statuses';
import { paymentEvents, payments, type PaymentRow } from './tables';

export type InitiateInput = VisitorDetails & {
  slotId: number;
  fee: number;
  slotDate: string;
  slotStartTime: string;
  preferredPaymentMethod?: PaymentMethod;
  holdToken?: string;
};

type Log = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

export const PaymentText = {
  notFound: 'Payment not found.',
  feeMismatch: (expected: number) =>
    `The fee does not match the current price for this school (${formatRM(expected)}). Please refresh and try again.`,
  slotMismatch: 'The slot date and time do not match this slot. Please refresh the timetable and try again.',
  pending: 'Payment is being processed.',
  cancelled: 'Payment cancelled. The slot has been released.',
  alreadyPaid: 'This payment has already been completed, so it cannot be cancelled.',
  refundPending: (amount: number) =>
    `Your payment was received after this slot was no longer available, so it was not booked. A full refund of ${formatRM(amount)} is being processed.`,
  refunded: (amount: number) =>
    `Your payment was received after this slot was no longer available, so it was not booked. A full refund of ${formatRM(amount)} has been issued.`,
  bookingMismatch: 'The booking does not belong to this payment.',
  unknownCurrency: 'Only MYR is supported.',
} as const;

type Status = PaymentRow['status'];
const OPEN: Status[] = [...OPEN_STATUSES];
const isOpen = (status: Status) => OPEN.includes(status);
const newPaymentId = () => `pay_${randomBytes(16).toString('hex')}`;
const newReference = () => `PAY-${randomBytes(8).toString('hex').toUpperCase()}`;
/** A session this close to its end is not handed out again: a fresh initiate starts a new one. */
const REUSE_MARGIN_MS = 60_000;
/** How long after the session's end an unanswered payment is given up (callbacks in flight may still land). */
const EXPIRY_GRACE_MS = 30_000;

const refuse = (r: Refusal): never => {
  throw new AppError(r.status, r.code, r.message);
};

const visitorOf = (p: PaymentRow): VisitorDetails => ({
  visitorName: p.visitorName,
  visitorEmail: p.visitorEmail,
  visitorContactNo: p.visitorContactNo,
  selectedSchool: p.selectedSchool,
});

const sameDetails = (p: PaymentRow, v: VisitorDetails, amountSen: number) =>
  p.visitorName === v.visitorName &&
  p.visitorContactNo === v.visitorContactNo &&
  p.selectedSchool === v.selectedSchool &&
  p.amountSen === amountSen;

export type ApplyResult = { payment: PaymentRow; duplicate: boolean; booked: boolean; refundNeeded: boolean };

/**
 * Payments: initiate (hold + payment row + gateway session, never inside a transaction), the callback and
 * reconciliation (both end in `applyState`: ONE transaction that moves the payment, books the slot and queues the mail).
 */
export class PaymentService {
  constructor(
    private readonly db: Db,
    readonly gateway: PaymentGateway,
    private readonly config: PaymentsConfig,
    private readonly log: Log,
    /** Called after a booking commits (wakes the mail worker). */
    private readonly onBooked: () => void = () => {},
  ) {}

  feeFor(school: string): number | undefined {
    return brand.schools.find((s) => s.name === school)?.feeSen;
  }

  async initiate(input: InitiateInput): Promise<PaymentSession> {
    const { slotId, fee, visitorName, visitorEmail, visitorContactNo, selectedSchool } = input;
    const visitor: VisitorDetails = { visitorName, visitorEmail, visitorContactNo, selectedSchool };
    const price = this.feeFor(selectedSchool);
    if (price === undefined) throw new AppError(400, ErrorCode.VALIDATION_ERROR, ValidationMessage.schoolRequired);
    if (fee !== price) throw new AppError(400, ErrorCode.FEE_MISMATCH, PaymentText.feeMismatch(price));

    const slot = await findSlot(this.db, slotId);
    if (!slot || slot.deletedAt) throw new AppError(404, ErrorCode.NOT_FOUND, 'Slot not found.');
    const startMinutes = inMY(slot.startAt).hour() * 60 + inMY(slot.startAt).minute();
    if (inMY(slot.startAt).format('YYYY-MM-DD') !== input.slotDate || parseSlotTime(input.slotStartTime) !== startMinutes)
      throw new AppError(400, ErrorCode.VALIDATION_ERROR, PaymentText.slotMismatch);

    // A repeated initiate from the same visitor for the same slot gets the same live session, not a second charge.
    const existing = await this.ownOpenPayment(slotId, visitorEmail);
    const stillLive = existing && existing.sessionExpiresAt.getTime() - Date.now() > REUSE_MARGIN_MS;
    if (existing && stillLive && sameDetails(existing, visitor, price)) return this.sessionOf(existing);

    let holdToken = input.holdToken ?? existing?.holdToken;
    if (existing) {
      // Same visitor, changed details or a session about to end: the old one is cancelled, its hold carried over.
      const reason = stillLive ? 'Replaced by a new payment with changed details' : 'Replaced by a new payment (the old session was ending)';
      await this.db
        .update(payments)
        .set({ status: 'cancelled', failureReason: reason, updatedAt: sql`now()` })
        .where(and(eq(payments.id, existing.id), inArray(payments.status, OPEN)));
      if (existing.gatewaySessionId) void this.gateway.cancel(existing.gatewaySessionId).catch(() => false);
    }
    const hold: Hold | Refusal = holdToken
      ? await renewHold(this.db, slotId, holdToken, HOLD_MINUTES)
      : await reserveSlot(this.db, slotId, HOLD_MINUTES);
    if ('ok' in hold) {
      // Two initiates racing from the same visitor: the other one may have won the hold a moment ago.
      const raced = hold.code === ErrorCode.SLOT_RESERVED ? await this.awaitOwnSession(slotId, visitor, price) : undefined;
      if (raced) return this.sessionOf(raced);
      return refuse(hold);
    }
    holdToken = hold.token;

    const [payment] = await this.db
      .insert(payments)
      .values({
        id: newPaymentId(),
        reference: newReference(),
        slotId,
        status: 'pending',
        amountSen: price,
        method: input.preferredPaymentMethod ?? null,
        ...visitor,
        holdToken,
        gateway: this.gateway.name,
        sessionExpiresAt: hold.expiresAt,
      })
      .returning();

    const site = this.config.publicSiteUrl;
    const failureUrl = `${site}/payment/failure?payment_id=${encodeURIComponent(payment.id)}`;
    const preferred = input.preferredPaymentMethod;
    let session;
    try {
      session = await this.gateway.createSession({
        amountSen: price,
        currency: 'MYR',
        reference: payment.reference,
        description: `Assessment visit: ${selectedSchool}, ${inMY(slot.startAt).format('D MMM YYYY, h:mm A')} (GMT+8)`,
        customer: { email: visitorEmail, fullName: visitorName, phone: visitorContactNo },
        allowedMethods: preferred ? [preferred, ...PAYMENT_METHODS.filter((m) => m !== preferred)] : [...PAYMENT_METHODS],
        expiresAt: hold.expiresAt,
        successUrl: `${site}/payment/success?reference=${encodeURIComponent(payment.reference)}`,
        failureUrl,
        cancelUrl: failureUrl,
        callbackUrl: `${this.config.apiPublicUrl}/api/payment/callback`,
      });
    } catch (err) {
      this.log.error({ err: (err as Error).message, paymentId: payment.id }, 'payment: gateway session could not be created');
      await this.db
        .update(payments)
        .set({ status: 'failed', failureReason: 'The payment gateway could not be reached', updatedAt: sql`now()` })
        .where(eq(payments.id, payment.id));
      // A hold the visitor took themselves stays theirs for a retry; one taken here is given back.
      if (!input.holdToken) await releaseHold(this.db, slotId, holdToken);
      throw new AppError(502, ErrorCode.GATEWAY_ERROR, BookingMessage.serviceUnavailable);
    }
    const [saved] = await this.db
      .update(payments)
      .set({ gatewaySessionId: session.sessionId, checkoutUrl: session.checkoutUrl, updatedAt: sql`now()` })
      .where(eq(payments.id, payment.id))
      .returning();
    this.log.info({ paymentId: saved.id, slotId, amountSen: price }, 'payment: initiated');
    return this.sessionOf(saved);
  }

  /** A double submit: while this visitor's other initiate for the slot is still creating its session, wait for it (≤ 3 s). */
  private async awaitOwnSession(slotId: number, visitor: VisitorDetails, price: number): Promise<PaymentRow | undefined> {
    for (let i = 0; i < 20; i++) {
      const [mine] = await this.db
        .select()
        .from(payments)
        .where(
          and(
            eq(payments.slotId, slotId),
            eq(payments.visitorEmail, visitor.visitorEmail),
            inArray(payments.status, OPEN),
            gt(payments.createdAt, sql`now() - interval '1 minute'`),
          ),
        )
        .orderBy(desc(payments.createdAt))
        .limit(1);
      if (mine && !sameDetails(mine, visitor, price)) return undefined;
      if (mine?.gatewaySessionId) return mine;
      // No row yet: only a hold taken in the last seconds can be this visitor's other request, between hold and insert.
      if (!mine && (i >= 5 || !(await this.holdIsFresh(slotId)))) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    return undefined;
  }

  private async holdIsFresh(slotId: number): Promise<boolean> {
    const slot = await findSlot(this.db, slotId);
    return !!slot?.holdExpiresAt && slot.holdExpiresAt.getTime() > Date.now() + HOLD_MINUTES * 60_000 - 5_000;
  }

  /** This visitor's newest open payment for the slot whose session has not ended. */
  private async ownOpenPayment(slotId: number, visitorEmail: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.slotId, slotId),
          eq(payments.visitorEmail, visitorEmail),
          inArray(payments.status, OPEN),
          sql`${payments.gatewaySessionId} IS NOT NULL`,
          gt(payments.sessionExpiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(payments.createdAt))
      .limit(1);
    return row;
  }

  private sessionOf(p: PaymentRow): PaymentSession {
    return {
      id: p.id,
      paymentId: p.id,
      checkoutUrl: p.checkoutUrl ?? '',
      clientReference: p.reference,
      expiresAt: p.sessionExpiresAt.toISOString(),
    };
  }

  async find(idOrReference: string, by: 'id' | 'reference' | 'either' = 'either'): Promise<PaymentRow> {
    const where =
      by === 'id' ? eq(payments.id, idOrReference) : by === 'reference' ? eq(payments.reference, idOrReference) : or(eq(payments.id, idOrReference), eq(payments.reference, idOrReference));
    const [row] = await this.db.select().from(payments).where(where);
    if (!row) throw new AppError(404, ErrorCode.PAYMENT_NOT_FOUND, PaymentText.notFound);
    return row;
  }

  /**
   * The one place a payment changes state, in ONE transaction (optionally recording the gateway event first, so a
   * replay changes nothing): paid → book the slot (hold or still free) and queue both mails, or mark for refund;
   * failed / expired / cancelled → close the payment and release its hold.
   */
  async applyState(
    paymentId: string,
    state: GatewayState,
    detail: { method?: string | null; amountSen?: number | null; event?: { id: string; kind: string }; awaitRefund?: boolean } = {},
  ): Promise<ApplyResult> {
    const result = await this.db.transaction(async (tx) => {
      // The payment row is locked first: the event insert's foreign key would otherwise take a share lock that two
      // concurrent callbacks then both try to upgrade (a deadlock on PostgreSQL).
      const [p] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
      if (detail.event) {
        const inserted = await tx
          .insert(paymentEvents)
          .values({ gateway: this.gateway.name, eventId: detail.event.id, paymentId, kind: detail.event.kind })
          .onConflictDoNothing()
          .returning({ id: paymentEvents.id });
        if (inserted.length === 0) return { payment: p, duplicate: true, booked: false, refundNeeded: false };
      }
      const update = (set: Partial<typeof payments.$inferInsert>) =>
        tx
          .update(payments)
          .set({ ...set, updatedAt: sql`now()` })
          .where(eq(payments.id, paymentId))
          .returning()
          .then((rows) => rows[0]);
      const unchanged = { payment: p, duplicate: false, booked: false, refundNeeded: false };

      if (state === 'paid') {
        if (p.status === 'completed' || p.status === 'refund_pending' || p.status === 'refunded') return unchanged;
        const method = detail.method ?? p.method;
        if (detail.amountSen != null && detail.amountSen !== p.amountSen) {
          const payment = await update({ status: 'refund_pending', method, refundReason: `Gateway reported ${detail.amountSen} sen, expected ${p.amountSen}` });
          return { payment, duplicate: false, booked: false, refundNeeded: true };
        }
        if (p.status === 'cancelled') {
          // The visitor cancelled (and the hold was released) before the money arrived: give it back, book nothing.
          const payment = await update({ status: 'refund_pending', method, refundReason: 'Paid after the payment was cancelled' });
          return { payment, duplicate: false, booked: false, refundNeeded: true };
        }
        const booking = await bookSlot(tx, {
          slotId: p.slotId,
          visitor: visitorOf(p),
          holdToken: p.holdToken,
          bookingReference: p.reference,
          amountSen: p.amountSen,
          leadHours: 0,
        });
        let slot: SlotRow | undefined = booking.ok ? booking.slot : undefined;
        if (!booking.ok) {
          const current = await findSlot(tx, p.slotId);
          if (current?.status === 'booked' && current.bookingReference === p.reference) slot = current;
        }
        if (!slot) {
          const payment = await update({ status: 'refund_pending', method, refundReason: 'The slot was no longer available when the payment arrived' });
          return { payment, duplicate: false, booked: false, refundNeeded: true };
        }
        const payment = await update({ status: 'completed', method, completedAt: sql`now()` as unknown as Date });
        await enqueueBookingMails(
          tx,
          {
            paymentId: p.id,
            reference: p.reference,
            amountSen: p.amountSen,
            method,
            start: slot.startAt,
            end: slot.endAt,
            school: p.selectedSchool,
            visitorName: p.visitorName,
            visitorEmail: p.visitorEmail,
            visitorContactNo: p.visitorContactNo,
          },
          { adminNotifyEmail: this.config.adminNotifyEmail, mailFrom: this.config.mailFrom },
        );
        return { payment, duplicate: false, booked: true, refundNeeded: false };
      }

      if (state === 'failed' || state === 'expired' || state === 'cancelled') {
        if (!isOpen(p.status)) return unchanged;
        const payment = await update({
          status: state === 'cancelled' ? 'cancelled' : 'failed',
          failureReason: state === 'expired' ? BookingMessage.sessionExpired : state === 'cancelled' ? 'Payment cancelled' : BookingMessage.paymentFailed,
        });
        await releaseHold(tx, p.slotId, p.holdToken);
        return { payment, duplicate: false, booked: false, refundNeeded: false };
      }

      if (state === 'refunded' && p.status === 'refund_pending') {
        return { payment: await update({ status: 'refunded' }), duplicate: false, booked: false, refundNeeded: false };
      }
      return unchanged;
    });

    // After commit: nothing below runs inside the transaction.
    if (result.booked) {
      this.log.info({ paymentId, slotId: result.payment.slotId }, 'payment: completed and slot booked');
      this.onBooked();
    }
    if (result.refundNeeded) {
      this.log.warn({ paymentId, reason: result.payment.refundReason }, 'payment: paid but not booked; refunding');
      // The callback answers without waiting for the gateway's refund; status and reconciliation await the same call.
      if (detail.awaitRefund === false)
        void this.refund(result.payment).catch((err) => this.log.error({ paymentId, err: (err as Error).message }, 'payment: refund failed'));
      else result.payment = await this.refund(result.payment);
    }
    return result;
  }

  private readonly refunds = new Map<string, Promise<PaymentRow>>();

  /**
   * Calls the gateway's refund for a refund_pending payment, once at a time per payment in this process (a second
   * caller waits for the same call); on failure it stays refund_pending for the next pass.
   */
  refund(p: PaymentRow): Promise<PaymentRow> {
    const inFlight = this.refunds.get(p.id);
    if (inFlight) return inFlight;
    const call = this.callRefund(p).finally(() => this.refunds.delete(p.id));
    this.refunds.set(p.id, call);
    return call;
  }

  private async callRefund(stale: PaymentRow): Promise<PaymentRow> {
    // Fresh read: another call may have finished the refund since the caller read the row.
    const p = await this.find(stale.id, 'id');
    if (p.status !== 'refund_pending' || !p.gatewaySessionId) return p;
    try {
      const refundId = await this.gateway.refund(p.gatewaySessionId, p.amountSen);
      const [row] = await this.db
        .update(payments)
        .set({ status: 'refunded', gatewayRefundId: refundId, updatedAt: sql`now()` })
        .where(and(eq(payments.id, p.id), eq(payments.status, 'refund_pending')))
        .returning();
      return row ?? (await this.find(p.id, 'id'));
    } catch (err) {
      this.log.error({ paymentId: p.id, err: (err as Error).message }, 'payment: refund call failed; will retry');
      return this.find(p.id, 'id');
    }
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
    const [p] = await this.db
      .select()
      .from(payments)
      .where(
        or(
          and(eq(payments.gateway, this.gateway.name), eq(payments.gatewaySessionId, event.sessionId)),
          event.reference ? eq(payments.reference, event.reference) : sql`false`,
        ),
      )
      .limit(1);
    if (!p) {
      this.log.warn({ sessionId: event.sessionId }, 'payment: callback for an unknown session ignored');
      return { received: true, applied: false, duplicate: false };
    }
    const result = await this.applyState(p.id, event.state, {
      method: event.method,
      amountSen: event.amountSen,
      event: { id: event.eventId, kind: event.state },
      awaitRefund: false,
    });
    return { received: true, applied: !result.duplicate, duplicate: result.duplicate };
  }

  /**
   * Asks the gateway about one open payment and applies its answer; an unanswered session past its end is cancelled
   * at the gateway and failed here (hold released). A refund_pending payment gets its refund call again.
   */
  async reconcile(p: PaymentRow): Promise<PaymentRow> {
    if (p.status === 'refund_pending') return this.refund(p);
    if (!isOpen(p.status)) return p;
    if (!p.gatewaySessionId) {
      // The process stopped between the payment row and the gateway session: no checkout exists to pay.
      if (Date.now() - p.createdAt.getTime() < 120_000) return p;
      return (await this.applyState(p.id, 'failed')).payment;
    }
    let status;
    try {
      status = await this.gateway.fetchStatus(p.gatewaySessionId);
    } catch (err) {
      this.log.warn({ paymentId: p.id, err: (err as Error).message }, 'payment: gateway status unavailable');
      return p;
    }
    if (status.state === 'pending') {
      if (p.sessionExpiresAt.getTime() + EXPIRY_GRACE_MS > Date.now()) return p;
      const closed = await this.gateway.cancel(p.gatewaySessionId).catch(() => false);
      if (!closed) return p;
      return (await this.applyState(p.id, 'expired')).payment;
    }
    return (await this.applyState(p.id, status.state, { method: status.method, amountSen: status.amountSen })).payment;
  }

  /** Every open or refund_pending payment, oldest first (at startup and on a timer). Resolves with how many changed. */
  async reconcileAll(limit = 200): Promise<number> {
    const open = await this.db
      .select()
      .from(payments)
      .where(inArray(payments.status, [...OPEN, 'refund_pending' as const]))
      .orderBy(payments.createdAt)
      .limit(limit);
    let changed = 0;
    for (const p of open) {
      const after = await this.reconcile(p).catch((err) => {
        this.log.error({ paymentId: p.id, err: (err as Error).message }, 'payment: reconcile failed');
        return p;
      });
      if (after.status !== p.status) changed++;
    }
    return changed;
  }

  async cancel(id: string): Promise<PaymentRow> {
    const p = await this.find(id, 'either');
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
    return (await this.applyState(p.id, 'cancelled')).payment;
  }

  /** The status answer; an open payment is first reconciled with the gateway. */
  async status(idOrReference: string, by: 'id' | 'reference' | 'either'): Promise<{ result: PaymentStatusResult; message: string }> {
    let p = await this.find(idOrReference, by);
    if (isOpen(p.status) || p.status === 'refund_pending') p = await this.reconcile(p);
    return this.present(p);
  }

  async present(p: PaymentRow): Promise<{ result: PaymentStatusResult; message: string }> {
    const [slot] = await this.db.select().from(slots).where(eq(slots.id, p.slotId));
    const mails = await mailsForPayment(this.db, p.id);
    const confirmed = p.status === 'completed' && slot?.status === 'booked' && slot.bookingReference === p.reference;
    const result: PaymentStatusResult = {
      payment: { id: p.id, status: p.status, amount: p.amountSen, reference: p.reference, method: p.method },
      booking: {
        confirmed,
        slotId: p.slotId,
        date: slot ? inMY(slot.startAt).format('YYYY-MM-DD') : '',
        startTime: slot ? inMY(slot.startAt).format('HH:mm') : '',
        endTime: slot ? inMY(slot.endAt).format('HH:mm') : '',
        selectedSchool: p.selectedSchool,
        visitorName: p.visitorName,
        visitorEmail: p.visitorEmail,
      },
      ...summariseMail(mails),
    };
    const message =
      p.status === 'completed'
        ? BookingMessage.paymentSuccess
        : p.status === 'refund_pending'
          ? PaymentText.refundPending(p.amountSen)
          : p.status === 'refunded'
            ? PaymentText.refunded(p.amountSen)
            : p.status === 'cancelled'
              ? PaymentText.cancelled
              : p.status === 'failed'
                ? (p.failureReason ?? BookingMessage.paymentFailed)
                : PaymentText.pending;
    return { result, message };
  }

  /** Open payments older than `ms` (used by tests and diagnostics). */
  async openOlderThan(ms: number): Promise<PaymentRow[]> {
    return this.db
      .select()
      .from(payments)
      .where(and(inArray(payments.status, OPEN), lt(payments.createdAt, sql`now() - make_interval(secs => ${ms / 1000})`)));
  }
}

export { GatewayError };
