import { and, eq, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { BookingMessage, ErrorCode, type VisitorDetails } from 'shared-api/contract';
import type { Db } from '../db/connection';
import type { SlotRow } from '../db/schema';
import { AppError } from '../errors';
import type { GatewayState, PaymentGateway, SessionStatus } from '../gateways/types';
import { appendBookingEvent } from '../bookings/events';
import { manageUrl, mintManageToken } from '../bookings/tokens';
import { enqueueBookingMails, enqueueRefundMails } from '../mail/outbox';
import type { BookingMailInput } from '../mail/templates';
import { bookSlot, findSlot, releaseHold } from '../slots/slot-service';
import type { PaymentsConfig } from './config';
import { PaymentText, RefundReason, type RefundCause } from './texts';
import { OPEN_STATUSES } from './statuses';
import { paymentEvents, payments, type PaymentRow } from './tables';

export type Log = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

type Status = PaymentRow['status'];
const OPEN: Status[] = [...OPEN_STATUSES];
export const isOpen = (status: Status) => OPEN.includes(status);
/** An attempt in flight holds the refund this long: no other process calls it meanwhile; a crashed one is retried after. */
const REFUND_LEASE_SECONDS = 120;
/** A failed refund is retried after 1 minute, doubling up to 6 hours. */
const REFUND_FIRST_RETRY_SECONDS = 60;
const REFUND_MAX_RETRY_SECONDS = 6 * 3600;
/** A refund the gateway is still processing (CHIP's pending_refund) is looked at again this often (status only). */
export const REFUND_CHECK_SECONDS = 30 * 60;

const refundDue = or(isNull(payments.nextRefundAt), lte(payments.nextRefundAt, sql`now()`)) as SQL;
/** Payments the gateway may be asked about: open ones, and refund_pending ones whose next refund attempt is due. */
export const gatewayDue = and(inArray(payments.status, [...OPEN, 'refund_pending' as const]), or(ne(payments.status, 'refund_pending'), refundDue)) as SQL;
/** The gateway's reported paid amount when known, else the fee. */
export const paidAmountOf = (p: PaymentRow) => p.paidAmountSen ?? p.amountSen;
/** What a refund gives back: a cancellation's amount (policy or staff), else all that was paid (paid but not booked). */
export const refundAmountOf = (p: PaymentRow) => p.refundAmountSen ?? paidAmountOf(p);

const visitorOf = (p: PaymentRow): VisitorDetails => ({
  visitorName: p.visitorName,
  visitorEmail: p.visitorEmail,
  visitorContactNo: p.visitorContactNo,
  selectedSchool: p.selectedSchool,
});

/** A payment and its slot as the mail templates take them (the amount is what was paid). */
export const mailInputOf = (p: PaymentRow, slot: SlotRow): BookingMailInput => ({
  paymentId: p.id,
  reference: p.reference,
  amountSen: paidAmountOf(p),
  method: p.method,
  start: slot.startAt,
  end: slot.endAt,
  school: p.selectedSchool,
  visitorName: p.visitorName,
  visitorEmail: p.visitorEmail,
  visitorContactNo: p.visitorContactNo,
  locale: p.locale,
});

export async function findPayment(db: Db, idOrReference: string, by: 'id' | 'reference' | 'either'): Promise<PaymentRow> {
  const where =
    by === 'id' ? eq(payments.id, idOrReference) : by === 'reference' ? eq(payments.reference, idOrReference) : or(eq(payments.id, idOrReference), eq(payments.reference, idOrReference));
  const [row] = await db.select().from(payments).where(where);
  if (!row) throw new AppError(404, ErrorCode.PAYMENT_NOT_FOUND, PaymentText.notFound);
  return row;
}

export type ApplyResult = { payment: PaymentRow; duplicate: boolean; booked: boolean; refundNeeded: boolean };

/** Every change of a payment's state: `applyState` (the callback, reconciliation and cancel all end there) and the gateway refund. */
export class PaymentStates {
  constructor(
    private readonly db: Db,
    private readonly gateway: PaymentGateway,
    private readonly config: PaymentsConfig,
    private readonly log: Log,
    /** Called after a booking's or a refund's mails commit (wakes the mail worker). */
    private readonly onMailQueued: () => void,
  ) {}

  /**
   * The one place a payment changes state, in ONE transaction (optionally recording the gateway event first, so a
   * replay changes nothing): paid → book the slot (hold or still free) and queue both mails, or (slot gone, cancelled,
   * amount not the fee) mark it for refund of what was paid and queue both refund mails; failed / expired / cancelled →
   * close the payment and release its hold.
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
        const paidAmountSen = detail.amountSen ?? null;
        const addresses = { adminNotifyEmail: this.config.adminNotifyEmail, mailFrom: this.config.mailFrom };
        // Paid but not booked: marked for refund, and the parent and the admin told, in this same transaction.
        const toRefund = async (cause: RefundCause) => {
          const refundReason =
            cause === 'amount_mismatch' ? RefundReason.amountMismatch(paidAmountSen!, p.amountSen) : cause === 'cancelled' ? RefundReason.cancelled : RefundReason.slotTaken;
          const payment = await update({ status: 'refund_pending', method, paidAmountSen, refundReason });
          // The payment's slot row always exists (foreign key; slots are only ever soft-deleted).
          const slot = (await findSlot(tx, p.slotId))!;
          await enqueueRefundMails(
            tx,
            { ...mailInputOf(payment, slot), expectedSen: p.amountSen, cause, bookingSiteUrl: this.config.publicSiteUrl },
            addresses,
          );
          return { payment, duplicate: false, booked: false, refundNeeded: true };
        };
        if (paidAmountSen != null && paidAmountSen !== p.amountSen) return toRefund('amount_mismatch');
        // The visitor cancelled (and the hold was released) before the money arrived: give it back, book nothing.
        if (p.status === 'cancelled') return toRefund('cancelled');
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
        if (!slot) return toRefund('slot_taken');
        const payment = await update({ status: 'completed', bookingStatus: 'booked', method, paidAmountSen, completedAt: sql`now()` as unknown as Date });
        await appendBookingEvent(tx, p.id, { kind: 'booked', actor: 'parent', toStart: slot.startAt, amountSen: paidAmountOf(payment) });
        // The confirmation carries a manage link of its own (minted here: a rolled-back booking leaves no link).
        const token = await mintManageToken(tx, p.id, 'mail');
        await enqueueBookingMails(tx, { ...mailInputOf(payment, slot), manageUrl: manageUrl(this.config.publicSiteUrl, token) }, addresses);
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
        // The gateway says it is done (CHIP's signed payment.refunded after pending_refund, or a status check).
        const payment = await update({ status: 'refunded', nextRefundAt: null });
        if (payment.bookingStatus) await appendBookingEvent(tx, p.id, { kind: 'refunded', actor: 'system', amountSen: refundAmountOf(payment) });
        return { payment, duplicate: false, booked: false, refundNeeded: false };
      }
      return unchanged;
    });

    // After commit: nothing below runs inside the transaction.
    if (result.booked) {
      this.log.info({ paymentId, slotId: result.payment.slotId }, 'payment: completed and slot booked');
      this.onMailQueued();
    }
    if (result.refundNeeded) {
      this.log.warn({ paymentId, reason: result.payment.refundReason }, 'payment: paid but not booked; refunding');
      this.onMailQueued();
      // The callback answers without waiting for the gateway's refund; status and reconciliation await the same call.
      if (detail.awaitRefund === false)
        void this.refund(result.payment).catch((err) => this.log.error({ paymentId, err: (err as Error).message }, 'payment: refund failed'));
      else result.payment = await this.refund(result.payment);
    }
    return result;
  }

  private readonly refunds = new Map<string, Promise<PaymentRow>>();

  /** The refund call this process is making for the payment, if any (a status poll waits for it rather than asking again). */
  refundInFlight(paymentId: string): Promise<PaymentRow> | undefined {
    return this.refunds.get(paymentId);
  }

  /**
   * The gateway's refund for a refund_pending payment whose attempt is due: a second caller in this process waits for
   * the same call, another process finds the attempt leased; a failure backs off (1 min doubling to 6 h).
   */
  refund(p: PaymentRow): Promise<PaymentRow> {
    const inFlight = this.refunds.get(p.id);
    if (inFlight) return inFlight;
    const call = this.callRefund(p).finally(() => this.refunds.delete(p.id));
    this.refunds.set(p.id, call);
    return call;
  }

  private async callRefund(stale: PaymentRow): Promise<PaymentRow> {
    // The lease is taken in the statement that checks the refund is still due: one attempt at a time, in any process.
    const [p] = await this.db
      .update(payments)
      .set({ nextRefundAt: sql`now() + make_interval(secs => ${REFUND_LEASE_SECONDS})` })
      .where(and(eq(payments.id, stale.id), eq(payments.status, 'refund_pending'), isNotNull(payments.gatewaySessionId), refundDue))
      .returning();
    if (!p) return findPayment(this.db, stale.id, 'id');
    const sessionId = p.gatewaySessionId!;
    // The gateway took the refund already and is finishing it: only ever ask how it went, never for it again.
    if (p.refundRequestedAt) return this.checkRequested(p, await this.gateway.fetchStatus(sessionId).catch(() => null));
    try {
      const answer = await this.gateway.refund(sessionId, refundAmountOf(p));
      return answer.settled ? await this.markRefunded(p.id, answer.refundId) : await this.markRequested(p.id, answer.refundId);
    } catch (err) {
      // An earlier attempt may have gone through with its answer lost (timeout, crash): the gateway then says refunded
      // (or that it is processing it).
      const status = await this.gateway.fetchStatus(sessionId).catch(() => null);
      if (status?.state === 'refunded') return this.markRefunded(p.id, null);
      if (status?.refundPending) return this.markRequested(p.id, null);
      const error = String((err as Error).message ?? err).slice(0, 500);
      const row = await this.db.transaction(async (tx) => {
        const [failed] = await tx
          .update(payments)
          .set({
            refundAttempts: sql`${payments.refundAttempts} + 1`,
            refundLastError: error,
            nextRefundAt: sql`now() + make_interval(secs => least(${REFUND_FIRST_RETRY_SECONDS} * power(2, ${payments.refundAttempts}), ${REFUND_MAX_RETRY_SECONDS}))`,
            updatedAt: sql`now()`,
          })
          .where(and(eq(payments.id, p.id), eq(payments.status, 'refund_pending')))
          .returning();
        if (failed?.bookingStatus) await appendBookingEvent(tx, p.id, { kind: 'refund_failed', actor: 'system', amountSen: refundAmountOf(failed) });
        return failed;
      });
      this.log.error({ paymentId: p.id, attempts: row?.refundAttempts, nextRefundAt: row?.nextRefundAt, err: error }, 'payment: refund failed; retried later');
      return row ?? (await findPayment(this.db, p.id, 'id'));
    }
  }

  /** A refund the gateway is processing: refunded once it says so, else looked at again in REFUND_CHECK_SECONDS. */
  private async checkRequested(p: PaymentRow, status: SessionStatus | null): Promise<PaymentRow> {
    if (status?.state === 'refunded') return this.markRefunded(p.id, null);
    const [row] = await this.db
      .update(payments)
      .set({ nextRefundAt: sql`now() + make_interval(secs => ${REFUND_CHECK_SECONDS})` })
      .where(and(eq(payments.id, p.id), eq(payments.status, 'refund_pending')))
      .returning();
    return row ?? (await findPayment(this.db, p.id, 'id'));
  }

  /** The gateway accepted the refund but has not finished it: recorded so that it is never asked for again. */
  private async markRequested(id: string, gatewayRefundId: string | null): Promise<PaymentRow> {
    const [row] = await this.db
      .update(payments)
      .set({
        gatewayRefundId: sql`coalesce(${gatewayRefundId}::text, ${payments.gatewayRefundId})`,
        refundRequestedAt: sql`coalesce(${payments.refundRequestedAt}, now())`,
        nextRefundAt: sql`now() + make_interval(secs => ${REFUND_CHECK_SECONDS})`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(payments.id, id), eq(payments.status, 'refund_pending')))
      .returning();
    this.log.info({ paymentId: id }, 'payment: refund accepted by the gateway, still processing');
    return row ?? (await findPayment(this.db, id, 'id'));
  }

  private async markRefunded(id: string, gatewayRefundId: string | null): Promise<PaymentRow> {
    const row = await this.db.transaction(async (tx) => {
      const [done] = await tx
        .update(payments)
        .set({ status: 'refunded', gatewayRefundId: sql`coalesce(${gatewayRefundId}::text, ${payments.gatewayRefundId})`, nextRefundAt: null, updatedAt: sql`now()` })
        .where(and(eq(payments.id, id), eq(payments.status, 'refund_pending')))
        .returning();
      if (done?.bookingStatus) await appendBookingEvent(tx, id, { kind: 'refunded', actor: 'system', amountSen: refundAmountOf(done) });
      return done;
    });
    return row ?? (await findPayment(this.db, id, 'id'));
  }
}
