import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  BOOKING_LEAD_HOURS,
  bookingChanges,
  changeTerms,
  ErrorCode,
  ManageErrorCode,
  ManageMessage,
  manageBookingPath,
  refundAmountSen,
  refundFromOf,
  refundPercentAt,
  type BookingChangesPolicy,
  type BookingRefund,
  type BookingState,
  type CancelQuote,
  type ManageLink,
  type ManageView,
  type StaffBooking,
  type StaffBookingRow,
} from 'shared-api/contract';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../base/db/connection';
import { slots, type SlotRow } from '../slots';
import { AppError } from '../base/errors';
import { refuseUnknownToken } from '../limits';
import { enqueueCancelMails, enqueueChildCancelMails, enqueueChildMoveMails, enqueueRescheduleMails, type MailAddresses } from '../mail';
import { withdrawPaymentMessages } from '../whatsapp';
import type { PaymentsConfig } from '../payments';
import { holdsPaymentKey } from '../payments';
import { mailInputOf, paidAmountOf, type Log } from '../payments';
import { MANAGE_GUESS_LIMIT, paymentForToken, payments, type PaymentRow } from '../payments';
import { bookedChildrenAt, childBookings, childrenOf, ownSeatOf, paymentChildren, recordSeats, seatsOf, stillBookedSen, type ChildSeat, type PaymentChildRow } from '../payments';
import { bookedVisitorOf, findSlot } from '../slots';
import { Checkout } from '../checkout';
import { slotFreed } from '../base/slot-watch';
import { appendBookingEvent, bookingHistory, startsOf } from '../bookings';
import { cancelUnpaid, cancelledUnpaidRows, findUnpaid, moveRefused, moveUnpaid, unpaidContact, unpaidHistory, unpaidRow, type StaffChange } from './unpaid';
import { browserTokenCount, manageUrl, MAX_BROWSER_TOKENS, mintManageToken } from '../bookings';
import { parentMessages, whatsappChoiceOf } from './parent-messages';
import { unconfirmedVisits } from './unconfirmed';

export { MANAGE_GUESS_LIMIT, paymentForToken };

/** The parent waits at most this long for the gateway's refund after a cancel (it carries on, and is retried, after). */
const CANCEL_REFUND_WAIT_MS = 10_000;

/** Server-side words of these routes that the contract does not carry. */
export const BookingText = {
  notFound: 'Booking not found.',
  childNotFound: 'This booking has no child at that place.',
  oneChild: 'This booking is for one child: move the whole booking.',
  refundReason: (by: string, percent: number) => `Booking cancelled by ${by === 'parent' ? 'the parent' : by}; ${percent}% refund`,
} as const;

const fail = (status: number, code: ErrorCode | ManageErrorCode, message: string) => new AppError(status, code as ErrorCode, message);
const invalidLink = () => fail(404, ManageErrorCode.MANAGE_LINK_INVALID, ManageMessage.invalidLink);
const expiredLink = () => fail(410, ManageErrorCode.MANAGE_LINK_EXPIRED, ManageMessage.expiredLink);
/** A refusal in ManageMessage's words, naming its key as the rule (the parent's page says it in their language). */
const refused = (status: number, code: ErrorCode | ManageErrorCode, rule: 'cancelled' | 'tooLate' | 'alreadyCancelled' | 'visitOver' | 'sameSlot' | 'notPaid') =>
  fail(status, code, ManageMessage[rule]).withReason({ rule });
const tooManyLinks = () => fail(429, ErrorCode.RATE_LIMITED, ManageMessage.tooManyTries);

export type BookingManagerOptions = {
  db: Db;
  config: PaymentsConfig;
  /** Queues the refund of a refund_pending payment and waits up to waitMs for its first attempt (payments/refunds.ts). */
  refund: (p: PaymentRow, waitMs: number) => Promise<PaymentRow>;
  /** Queues the refund of one cancelled child's share and waits up to waitMs for its first attempt (issue 37). */
  refundChild: (p: PaymentRow, position: number, waitMs: number) => Promise<void>;
  /** Wakes the mail worker after a change's mails commit. */
  onMailQueued: () => void;
  log: Log;
  policy?: BookingChangesPolicy;
  now?: () => Date;
};

/**
 * A booking as found: its payment, its slot, the start its refund is measured from (the earliest it has had), and the
 * children of a checkout of several (issue 37; empty for one child).
 */
type Located = { payment: PaymentRow; slot: SlotRow; refundFrom: Date; children: PaymentChildRow[]; seats: Map<number, ChildSeat> };
type Booking = Pick<Located, 'payment' | 'slot' | 'children' | 'seats'>;
/** The children of a booking of several still booked. */
const remaining = (children: PaymentChildRow[]) => children.filter((c) => c.cancelledAt === null);

/**
 * A paid booking after the payment: the parent's manage link (view, reschedule, cancel with the policy's refund) and the
 * staff's list, history and cancel. Every change is ONE transaction that locks the payment row first, so two changes
 * of one booking run one after the other, and its mails and history are written with it.
 */
export class BookingManager {
  private readonly db: Db;
  private readonly policy: BookingChangesPolicy;
  private readonly now: () => Date;

  /** Loaded with the manager, before any transaction needs it (PGlite runs one transaction at a time). */
  private readonly checkout: Promise<Checkout>;

  constructor(private readonly options: BookingManagerOptions) {
    this.db = options.db;
    this.checkout = Checkout.for(options.db);
    // A failed load is answered when a change awaits it, not as an unhandled rejection.
    this.checkout.catch(() => undefined);
    this.policy = options.policy ?? bookingChanges;
    this.now = options.now ?? (() => new Date());
  }

  private get addresses(): MailAddresses {
    return { adminNotifyEmail: this.options.config.adminNotifyEmail, mailFrom: this.options.config.mailFrom };
  }

  // ---- Tokens and the guessing limit ----

  /** The payment id a token opens; an unknown or malformed one is counted for the address (404, then 429). */
  private async resolve(token: string, client: string): Promise<string> {
    const p = await paymentForToken(this.db, token);
    if (!p || !p.bookingStatus) return refuseUnknownToken(this.db, MANAGE_GUESS_LIMIT, client, invalidLink);
    return p.id;
  }

  private async locate(db: DbOrTx, paymentId: string, lock: boolean): Promise<Located> {
    const query = db.select().from(payments).where(eq(payments.id, paymentId));
    const [payment] = lock ? await query.for('update') : await query;
    // The payment's slot row always exists (foreign key; slots are only ever soft-deleted).
    const slot = (await findSlot(db, payment.slotId))!;
    const children = await childrenOf(db, paymentId);
    return { payment, slot, refundFrom: refundFromOf([slot.startAt, ...(await startsOf(db, paymentId))]), children, seats: await seatsOf(db, children) };
  }

  // ---- What the parent sees ----

  private deadline = (slot: SlotRow) => new Date(slot.startAt.getTime() - this.policy.cutoffHours * 3_600_000);

  private stateOf({ payment, slot }: Booking, now: Date): BookingState {
    if (payment.bookingStatus === 'cancelled') return 'cancelled';
    return slot.endAt.getTime() <= now.getTime() ? 'over' : 'booked';
  }

  /**
   * What a cancel at `now` would refund under the policy, measured from the earliest start the booking has had: of what
   * the children still booked paid, or of one child's share (`child`).
   */
  quote({ payment, refundFrom, children }: Located, now: Date, child?: PaymentChildRow): CancelQuote {
    const percent = refundPercentAt(refundFrom, now, this.policy);
    return { percent, amountSen: refundAmountSen(child ? child.amountSen : stillBookedSen(paidAmountOf(payment), children), percent) };
  }

  private refundOf(p: PaymentRow): BookingRefund | null {
    if (p.bookingStatus !== 'cancelled' || !p.refundAmountSen || (p.status !== 'refund_pending' && p.status !== 'refunded')) return null;
    const state = p.status === 'refunded' ? 'refunded' : p.refundAttempts > 0 && !p.refundRequestedAt ? 'failing' : 'pending';
    return { amountSen: p.refundAmountSen, state };
  }

  private core(located: Booking, now: Date) {
    const { payment, slot } = located;
    return {
      reference: payment.reference,
      school: payment.selectedSchool,
      start: slot.startAt.toISOString(),
      end: slot.endAt.toISOString(),
      amountPaidSen: paidAmountOf(payment),
      state: this.stateOf(located, now),
      refund: this.refundOf(payment),
    };
  }

  present(located: Located, now = this.now()): ManageView {
    const core = this.core(located, now);
    const canChange = core.state === 'booked' && now.getTime() < this.deadline(located.slot).getTime();
    return {
      ...core,
      refundFrom: located.refundFrom.toISOString(),
      terms: changeTerms({ start: located.slot.startAt, refundFrom: located.refundFrom, now, policy: this.policy }),
      changeDeadline: this.deadline(located.slot).toISOString(),
      canChange,
      cancelQuote: canChange ? this.quote(located, now) : null,
      calendarSequence: located.payment.calendarSequence,
      whatsapp: located.payment.whatsappOptInAt ? (located.payment.whatsappOptOutAt ? 'off' : 'on') : null,
      childName: located.payment.childName,
      childYear: located.payment.childYear,
      // Each child alone may be cancelled while another stays booked.
      ...(located.children.length > 0 && {
        children: bookedChildrenAt(located.children, located.seats, located.slot.startAt).map((shown, i) => {
          const child = located.children[i];
          return { ...shown, cancelQuote: canChange && child.cancelledAt === null && remaining(located.children).length > 1 ? this.quote(located, now, child) : null };
        }),
      }),
    };
  }

  /** GET /api/booking/manage/:token: 410 once the visit is over. */
  async view(token: string, client: string): Promise<ManageView> {
    const located = await this.locate(this.db, await this.resolve(token, client), false);
    const now = this.now();
    if (located.slot.endAt.getTime() <= now.getTime()) throw expiredLink();
    return this.present(located, now);
  }

  /** POST /api/booking/manage/:token/whatsapp-off: no more WhatsApp messages for this booking (those waiting are not sent); email goes on. */
  async stopWhatsApp(token: string, client: string): Promise<ManageView> {
    const paymentId = await this.resolve(token, client);
    const now = this.now();
    const located = await this.db.transaction(async (tx) => {
      await tx
        .update(payments)
        .set({ whatsappOptOutAt: now })
        .where(and(eq(payments.id, paymentId), isNotNull(payments.whatsappOptInAt), isNull(payments.whatsappOptOutAt)));
      await withdrawPaymentMessages(tx, paymentId, now);
      return this.locate(tx, paymentId, false);
    });
    if (located.slot.endAt.getTime() <= now.getTime()) throw expiredLink();
    return this.present(located, now);
  }

  /** Refuses a change the parent may not make now: over (410), cancelled or past the cut-off (409). */
  private assertParentMayChange(located: Located, now: Date): void {
    const state = this.stateOf(located, now);
    if (state === 'over') throw expiredLink();
    if (state === 'cancelled') throw refused(409, ManageErrorCode.CHANGE_CLOSED, 'cancelled');
    if (now.getTime() >= this.deadline(located.slot).getTime()) throw refused(409, ManageErrorCode.CHANGE_CLOSED, 'tooLate');
  }

  // ---- Reschedule ----

  /**
   * Moves the booking to `slotId` in ONE transaction: the payment row locked, the old slot freed, the new one taken with
   * the booking's conditional UPDATE (live, available, not held, at least the lead time ahead). A new slot not won
   * rolls everything back: the parent keeps the old one (409). The payment points at the new slot, the invitation's
   * sequence goes up, and the history and both mails are written with it.
   */
  async reschedule(token: string, slotId: number, client: string): Promise<ManageView> {
    const paymentId = await this.resolve(token, client);
    const now = this.now();
    const located = await this.db.transaction(async (tx) => {
      const before = await this.locate(tx, paymentId, true);
      this.assertParentMayChange(before, now);
      return this.moveLocked(tx, before, slotId, { actor: 'parent', action: 'parent_rescheduled', ip: client });
    });
    this.options.log.info({ paymentId, slotId }, 'booking: rescheduled by the parent');
    slotFreed(this.db);
    this.options.onMailQueued();
    return this.present(located);
  }

  /** Staff move a booking any time before its visit ends (no cut-off; the new slot keeps the lead time), recorded with who. */
  async staffMove(reference: string, slotId: number, staffEmail: string, by: { userId?: number; ip?: string } = {}, position?: number): Promise<StaffBooking> {
    const now = this.now();
    if (!(await this.isPaid(reference))) {
      // A booking staff made without a payment is of one child.
      if (position !== undefined) throw fail(400, ErrorCode.VALIDATION_ERROR, BookingText.oneChild);
      const moved = await this.db.transaction(async (tx) => moveUnpaid(tx, await this.unpaidOr404(tx, reference), slotId, await this.staffChange(staffEmail, by, now)));
      this.options.log.info({ reference, slotId: moved.id, by: staffEmail }, 'booking without payment: moved by staff');
      slotFreed(this.db);
      this.options.onMailQueued();
      return this.staffGet(reference);
    }
    const located = await this.db.transaction(async (tx) => {
      const before = await this.byReference(tx, reference, true);
      const state = this.stateOf(before, now);
      if (state === 'cancelled') throw refused(409, ManageErrorCode.CHANGE_CLOSED, 'alreadyCancelled');
      if (state === 'over') throw refused(409, ManageErrorCode.CHANGE_CLOSED, 'visitOver');
      const staff = { actor: staffEmail, actorUserId: by.userId, action: 'booking_moved_by_staff' as const, ip: by.ip };
      if (position !== undefined) return this.moveChildLocked(tx, before, position, slotId, staff);
      return this.moveLocked(tx, before, slotId, staff);
    });
    this.options.log.info({ paymentId: located.payment.id, slotId, by: staffEmail, child: position }, 'booking: moved by staff');
    slotFreed(this.db);
    this.options.onMailQueued();
    return this.staffGet(reference);
  }

  /** The move itself, on a locked booked booking (see `reschedule`); `by` names who in the history and the audit trail. */
  private async moveLocked(
    tx: DbOrTx,
    before: Located,
    slotId: number,
    by: { actor: string; actorUserId?: number; action: 'parent_rescheduled' | 'booking_moved_by_staff'; ip?: string },
  ): Promise<Located> {
    const { payment: p, slot: from } = before;
    if (slotId === from.id) throw refused(400, ErrorCode.VALIDATION_ERROR, 'sameSlot');
    const checkout = await this.checkout;
    const moveBy = by.action === 'parent_rescheduled' ? 'parent' : 'staff';
    const sequence = { calendarSequence: sql`${payments.calendarSequence} + 1` as unknown as number };
    let moved: PaymentRow;
    let to: SlotRow | undefined;
    if (before.children.length > 0) {
      // Several children (issue 37): each still-booked child to a seat of the new time, all or none. A child staff
      // already moved alone to that time keeps their seat; none to move: the same time.
      const target = await findSlot(tx, slotId);
      const seats: { position: number; slotId: number }[] = [];
      let movedAny = false;
      for (const child of childBookings(p, before.children, BOOKING_LEAD_HOURS)) {
        const seat = before.seats.get(child.slotId);
        if (target && seat && seat.startAt.getTime() === target.startAt.getTime()) {
          seats.push({ position: child.position, slotId: child.slotId });
          continue;
        }
        const step = await checkout.move(tx, { ...child, fromSlotId: child.slotId, reference: p.reference, by: moveBy, slotId });
        // Thrown, so the transaction rolls back and every child keeps their seat.
        if (!step.ok) throw moveRefused(step);
        seats.push({ position: child.position, slotId: step.slot.id });
        to ??= step.slot;
        movedAny = true;
      }
      if (!movedAny) throw refused(400, ErrorCode.VALIDATION_ERROR, 'sameSlot');
      moved = await recordSeats(tx, p, seats, sequence);
    } else {
      const step = await checkout.move(tx, {
        fromSlotId: from.id,
        reference: p.reference,
        by: moveBy,
        slotId,
        visitor: bookedVisitorOf(p),
        amountSen: p.amountSen,
        leadHours: BOOKING_LEAD_HOURS,
        consentId: p.consentId,
      });
      // Thrown, so the transaction rolls back and the old slot stays the booking's.
      if (!step.ok) throw moveRefused(step);
      to = step.slot;
      [moved] = await tx
        .update(payments)
        .set({ slotId: to.id, ...sequence, updatedAt: sql`now()` })
        .where(eq(payments.id, p.id))
        .returning();
    }
    // Every child moved (a booking of several has at least one still booked).
    const won = { slot: to! };
    await appendBookingEvent(tx, p.id, { kind: 'rescheduled', actor: by.actor, fromStart: from.startAt, toStart: won.slot.startAt });
    await recordAudit(tx, {
      actor: by.actor,
      actorUserId: by.actorUserId,
      action: by.action,
      target: p.reference,
      detail: { from: from.startAt.toISOString(), to: won.slot.startAt.toISOString() },
      ip: by.ip,
    });
    const link = manageUrl(this.options.config.publicSiteUrl, await mintManageToken(tx, p.id, 'mail'));
    // A move never moves the refund deadline later: the refund stays measured from the earliest start (changeTerms).
    const refundFrom = refundFromOf([before.refundFrom, won.slot.startAt]);
    const terms = changeTerms({ start: won.slot.startAt, refundFrom, now: this.now(), policy: this.policy });
    await enqueueRescheduleMails(
      tx,
      { ...mailInputOf(moved, won.slot, await childrenOf(tx, p.id)), fromStart: from.startAt, fromEnd: from.endAt, sequence: moved.calendarSequence, manageUrl: link, terms },
      this.addresses,
    );
    const children = await childrenOf(tx, p.id);
    return { payment: moved, slot: won.slot, refundFrom, children, seats: await seatsOf(tx, children) };
  }

  /**
   * Staff move one child of a locked booking of several to another time (issue 37), the others staying where they
   * are: that child's seat moved through the checkout (same rules as a whole move), `payment_children.slot_id` its new
   * seat, the payment still pointing at a seat at the booking's time. The history and the audit trail name the child;
   * the parent's mail names the child and the new time (the booking's calendar invitation stays as it is). The last
   * child still booked is the booking itself: it moves as a whole.
   */
  private async moveChildLocked(
    tx: DbOrTx,
    before: Located,
    position: number,
    slotId: number,
    by: { actor: string; actorUserId?: number; action: 'booking_moved_by_staff'; ip?: string },
  ): Promise<Located> {
    const { payment: p, slot: bookingSlot, children } = before;
    if (children.length === 0) throw fail(400, ErrorCode.VALIDATION_ERROR, BookingText.oneChild);
    const child = this.childToCancel(before, position);
    const left = remaining(children);
    if (left.length === 1) return this.moveLocked(tx, before, slotId, by);
    // The seat row always exists (foreign key; slots are only ever soft-deleted).
    const from = (await findSlot(tx, child.slotId))!;
    const target = await findSlot(tx, slotId);
    if (slotId === from.id || (target && target.startAt.getTime() === from.startAt.getTime())) throw refused(400, ErrorCode.VALIDATION_ERROR, 'sameSlot');
    const [booking] = childBookings(p, [child], BOOKING_LEAD_HOURS);
    const step = await (await this.checkout).move(tx, { ...booking, fromSlotId: child.slotId, reference: p.reference, by: 'staff', slotId });
    // Thrown, so the transaction rolls back and the child keeps their seat.
    if (!step.ok) throw moveRefused(step);
    await tx.update(paymentChildren).set({ slotId: step.slot.id }).where(and(eq(paymentChildren.paymentId, p.id), eq(paymentChildren.position, position)));
    if (child.slotId === p.slotId) {
      // The payment names the booking's time by a seat: another child's still there, else another child's.
      const others = left.filter((c) => c.position !== position);
      const stay = others.find((c) => !ownSeatOf(c, before.seats, bookingSlot.startAt)) ?? others[0];
      await tx.update(payments).set({ slotId: stay.slotId, updatedAt: sql`now()` }).where(eq(payments.id, p.id));
    }
    await appendBookingEvent(tx, p.id, { kind: 'rescheduled', actor: by.actor, fromStart: from.startAt, toStart: step.slot.startAt, childName: child.childName });
    await recordAudit(tx, {
      actor: by.actor,
      actorUserId: by.actorUserId,
      action: by.action,
      target: p.reference,
      detail: { child: position, childName: child.childName, from: from.startAt.toISOString(), to: step.slot.startAt.toISOString() },
      ip: by.ip,
    });
    const after = await this.locate(tx, p.id, false);
    await enqueueChildMoveMails(
      tx,
      {
        ...mailInputOf(after.payment, step.slot, after.children),
        child: { position, childName: child.childName, childYear: child.childYear, school: child.selectedSchool, amountSen: child.amountSen },
        fromStart: from.startAt,
        fromEnd: from.endAt,
        by: by.actor,
        // One pair of messages per move of the child (a child may be moved again, even back).
        suffix: `child-${position}-${step.slot.id}-${from.id}-${Date.now()}`,
      },
      this.addresses,
    );
    return after;
  }

  // ---- Cancel ----

  /**
   * Cancels a locked, booked booking: slot freed, booking cancelled (sequence up), history, and when `refundSen` > 0
   * the payment marked refund_pending for that amount (refunded after commit); both mails queued.
   */
  private async cancelLocked(tx: DbOrTx, { payment: p, slot, refundFrom, children, seats: childSeats }: Located, by: string, refund: { amountSen: number; percent: number }): Promise<Located> {
    const checkout = await this.checkout;
    // Every child still booked gives their seat back (one seat for a booking of one child).
    const seats = children.length > 0 ? remaining(children).map((c) => c.slotId) : [slot.id];
    for (const seat of seats) await checkout.freeBooking(tx, seat, p.reference);
    const refunding = refund.amountSen > 0;
    const [cancelled] = await tx
      .update(payments)
      .set({
        bookingStatus: 'cancelled',
        cancelledAt: sql`now()` as unknown as Date,
        cancelledBy: by,
        calendarSequence: sql`${payments.calendarSequence} + 1`,
        ...(refunding
          ? {
              status: 'refund_pending' as const,
              refundAmountSen: refund.amountSen,
              refundReason: BookingText.refundReason(by, refund.percent),
              refundAttempts: 0,
              refundLastError: null,
            }
          : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(payments.id, p.id))
      .returning();
    await appendBookingEvent(tx, p.id, { kind: 'cancelled', actor: by, fromStart: slot.startAt });
    if (refunding) await appendBookingEvent(tx, p.id, { kind: 'refund_requested', actor: by, amountSen: refund.amountSen });
    await enqueueCancelMails(
      tx,
      { ...mailInputOf(cancelled, slot, children), refundSen: refund.amountSen, by, sequence: cancelled.calendarSequence, bookingSiteUrl: this.options.config.publicSiteUrl },
      this.addresses,
    );
    return { payment: cancelled, slot, refundFrom, children, seats: childSeats };
  }

  /**
   * Cancels one child of a locked booking of several while another stays booked (issue 37): the child's seat freed,
   * the child marked cancelled with its refund (`refundSen` > 0: the `child-refund` queue gives it back after commit),
   * the payment pointed at a seat still booked, the history and both mails written with it.
   */
  private async cancelChildLocked(tx: DbOrTx, located: Located, child: PaymentChildRow, by: string, refundSen: number): Promise<Located> {
    const { payment: p } = located;
    await (await this.checkout).freeBooking(tx, child.slotId, p.reference);
    await tx
      .update(paymentChildren)
      .set({ cancelledAt: sql`now()` as unknown as Date, cancelledBy: by, ...(refundSen > 0 && { refundSen, refundState: 'pending' as const }) })
      .where(and(eq(paymentChildren.paymentId, p.id), eq(paymentChildren.position, child.position)));
    const left = remaining(located.children).filter((c) => c.position !== child.position);
    // The payment points at a child still at the booking's time when one is (a child moved alone has its own time).
    const stay = left.find((c) => !ownSeatOf(c, located.seats, located.slot.startAt)) ?? left[0];
    const payment = child.slotId === p.slotId ? await recordSeats(tx, p, [{ position: stay.position, slotId: stay.slotId }]) : p;
    // The child's own time (a child staff moved alone sits at another time than the booking's).
    const seat = located.seats.get(child.slotId);
    const childSlot = seat ? { ...located.slot, startAt: seat.startAt, endAt: seat.endAt } : located.slot;
    await appendBookingEvent(tx, p.id, { kind: 'child_cancelled', actor: by, fromStart: childSlot.startAt, amountSen: refundSen > 0 ? refundSen : null, childName: child.childName });
    const relocated = await this.locate(tx, p.id, false);
    await enqueueChildCancelMails(
      tx,
      {
        ...mailInputOf(payment, childSlot, relocated.children),
        child: { position: child.position, childName: child.childName, childYear: child.childYear, school: child.selectedSchool, amountSen: child.amountSen, cancelled: true },
        refundSen,
        by,
        bookingSiteUrl: this.options.config.publicSiteUrl,
      },
      this.addresses,
    );
    return relocated;
  }

  /** The child at `position` of a booking of several, still booked with another: 404 / 409 otherwise. */
  private childToCancel(located: Located, position: number): PaymentChildRow {
    const child = located.children.find((c) => c.position === position);
    if (!child) throw fail(404, ErrorCode.NOT_FOUND, BookingText.childNotFound);
    if (child.cancelledAt !== null) throw refused(409, ManageErrorCode.CHANGE_CLOSED, 'alreadyCancelled');
    return child;
  }

  /** After a cancel commits: wake the mail, and ask the gateway for the refund (a failure is retried later, never an error here). */
  private async afterCancel(located: Located, position?: number): Promise<Located> {
    this.options.onMailQueued();
    const child = position === undefined ? undefined : located.children.find((c) => c.position === position);
    if (child && located.payment.bookingStatus === 'booked') {
      // One child's share: its own refund, waited for as a whole refund is.
      if (child.refundState !== 'pending') return located;
      await this.options.refundChild(located.payment, child.position, CANCEL_REFUND_WAIT_MS).catch((err) => {
        this.options.log.error({ paymentId: located.payment.id, child: child.position, err: (err as Error).message }, 'booking: child refund not queued; the reconcile pass queues it');
      });
      return this.locate(this.db, located.payment.id, false);
    }
    if (located.payment.status !== 'refund_pending') return located;
    const waited = await this.options.refund(located.payment, CANCEL_REFUND_WAIT_MS).catch((err) => {
      this.options.log.error({ paymentId: located.payment.id, err: (err as Error).message }, 'booking: refund after cancel not queued; the reconcile pass queues it');
      return undefined;
    });
    return waited ? { ...located, payment: waited } : this.locate(this.db, located.payment.id, false);
  }

  /** The parent cancels before the cut-off, confirming the refund they were shown (409 QUOTE_CHANGED when it moved). */
  async cancel(token: string, expectedRefundSen: number, client: string, position?: number): Promise<ManageView> {
    const paymentId = await this.resolve(token, client);
    const now = this.now();
    const located = await this.db.transaction(async (tx) => {
      const before = await this.locate(tx, paymentId, true);
      this.assertParentMayChange(before, now);
      const child = position === undefined ? undefined : this.childToCancel(before, position);
      const quote = this.quote(before, now, child);
      if (quote.amountSen !== expectedRefundSen) throw fail(409, ManageErrorCode.QUOTE_CHANGED, ManageMessage.quoteChanged);
      // One child of several, another staying booked (the last one left cancels the booking).
      if (child && remaining(before.children).length > 1) {
        await recordAudit(tx, { actor: 'parent', action: 'parent_cancelled', target: before.payment.reference, detail: { child: child.position, refundSen: quote.amountSen }, ip: client });
        return this.cancelChildLocked(tx, before, child, 'parent', quote.amountSen);
      }
      await recordAudit(tx, { actor: 'parent', action: 'parent_cancelled', target: before.payment.reference, detail: { refundSen: quote.amountSen }, ip: client });
      return this.cancelLocked(tx, before, 'parent', quote);
    });
    this.options.log.info({ paymentId, child: position, refundSen: located.payment.refundAmountSen }, 'booking: cancelled by the parent');
    slotFreed(this.db);
    return this.present(await this.afterCancel(located, position));
  }

  // ---- The paying browser's link ----

  /**
   * POST /api/booking/manage-link: a link for the browser that paid, which shows it with the payment's key (its hold
   * token; the payment id alone is in URLs and proves nothing), at most MAX_BROWSER_TOKENS. An unknown id or a wrong key
   * is counted like an unknown manage token and answered without any booking data.
   */
  async browserLink(paymentId: string, key: string | undefined, client: string): Promise<ManageLink> {
    const [known] = await this.db.select({ holdToken: payments.holdToken }).from(payments).where(eq(payments.id, paymentId));
    if (!known || !holdsPaymentKey(known, key))
      return refuseUnknownToken(this.db, MANAGE_GUESS_LIMIT, client, () =>
        known ? fail(403, ErrorCode.FORBIDDEN, ManageMessage.notYours) : fail(404, ErrorCode.PAYMENT_NOT_FOUND, ManageMessage.notPaid),
      );
    const now = this.now();
    const token = await this.db.transaction(async (tx) => {
      const located = await this.locate(tx, paymentId, true);
      if (located.payment.status !== 'completed' || located.payment.bookingStatus !== 'booked')
        throw refused(409, ErrorCode.PAYMENT_NOT_COMPLETED, located.payment.bookingStatus === 'cancelled' ? 'cancelled' : 'notPaid');
      if (this.stateOf(located, now) === 'over') throw expiredLink();
      if ((await browserTokenCount(tx, paymentId)) >= MAX_BROWSER_TOKENS) throw tooManyLinks();
      return mintManageToken(tx, paymentId, 'browser');
    });
    return { token, path: manageBookingPath(token) };
  }

  // ---- Staff ----

  private staffRow(located: Booking, now: Date): StaffBookingRow {
    const { payment: p } = located;
    return {
      ...this.core(located, now),
      paymentId: p.id,
      visitorName: p.visitorName,
      visitorEmail: p.visitorEmail,
      visitorContactNo: p.visitorContactNo,
      childName: p.childName,
      childYear: p.childYear,
      ...(located.children.length > 0 && { children: bookedChildrenAt(located.children, located.seats, located.slot.startAt) }),
    };
  }

  /**
   * Every paid booking (cancelled ones too), and booked slots no payment stands behind (staff's direct bookings, the
   * demo seed's), newest visit first: what the CSV export lists.
   */
  async staffList(): Promise<StaffBookingRow[]> {
    const [rows, unpaid, cancelledUnpaid] = await Promise.all([
      this.db
        .select({ payment: payments, slot: slots })
        .from(payments)
        .innerJoin(slots, eq(slots.id, payments.slotId))
        .where(isNotNull(payments.bookingStatus)),
      this.db
        .select({ slot: slots })
        .from(slots)
        // A booking of several children has seats whose id is no payment's: its payments are found by its reference.
        .leftJoin(payments, and(eq(payments.reference, slots.bookingReference), eq(payments.bookingStatus, 'booked')))
        .where(and(eq(slots.status, 'booked'), isNull(slots.deletedAt), isNull(payments.id))),
      // A cancelled unpaid booking is in the list (and the CSV) as a cancelled paid one is.
      cancelledUnpaidRows(this.db),
    ]);
    const now = this.now();
    const children = await this.db.select().from(paymentChildren);
    const childrenOfPayment = (id: string) => children.filter((c) => c.paymentId === id).sort((a, b) => a.position - b.position);
    // Where each child still booked sits (a child staff moved alone has a time of its own).
    const seats = await seatsOf(this.db, children);
    const list = [...rows.map((row) => this.staffRow({ ...row, children: childrenOfPayment(row.payment.id), seats }, now)), ...unpaid.map(({ slot }) => unpaidRow(slot, now)), ...cancelledUnpaid];
    return list.sort((a, b) => Date.parse(b.start) - Date.parse(a.start));
  }

  /** True when a payment carries the reference (a paid booking, or a payment that never booked: 404 below). */
  private async isPaid(reference: string): Promise<boolean> {
    const [found] = await this.db.select({ id: payments.id }).from(payments).where(eq(payments.reference, reference));
    return found !== undefined;
  }

  /** The booked slot of a booking with no payment, locked inside a transaction (404 when no booking carries the reference). */
  private async unpaidOr404(db: DbOrTx, reference: string) {
    const slot = await findUnpaid(db, reference, db !== this.db);
    if (!slot) throw fail(404, ErrorCode.NOT_FOUND, BookingText.notFound);
    return slot;
  }

  private async staffChange(actor: string, by: { userId?: number; ip?: string }, now: Date): Promise<StaffChange> {
    return { actor, actorUserId: by.userId, ip: by.ip, addresses: this.addresses, now, bookingSiteUrl: this.options.config.publicSiteUrl, checkout: await this.checkout };
  }

  private async byReference(db: DbOrTx, reference: string, lock: boolean): Promise<Located> {
    const [found] = await db.select({ id: payments.id, bookingStatus: payments.bookingStatus }).from(payments).where(eq(payments.reference, reference));
    if (!found?.bookingStatus) throw fail(404, ErrorCode.NOT_FOUND, BookingText.notFound);
    return this.locate(db, found.id, lock);
  }

  async staffGet(reference: string): Promise<StaffBooking> {
    if (!(await this.isPaid(reference))) {
      const slot = await this.unpaidOr404(this.db, reference);
      return { ...unpaidRow(slot, this.now()), history: await unpaidHistory(this.db, reference), ...(await unpaidContact(this.db, reference)) };
    }
    const located = await this.byReference(this.db, reference, false);
    const { payment: p } = located;
    return {
      ...this.staffRow(located, this.now()),
      history: await bookingHistory(this.db, p.id),
      messages: await parentMessages(this.db, { paymentId: p.id, reference: p.reference, holdToken: p.holdToken }),
      confirmedByParentAt: p.confirmedByParentAt?.toISOString() ?? null,
      whatsapp: whatsappChoiceOf(p),
    };
  }

  /** A day's visits (GMT+8) booked and not confirmed by the parent, for the office to call (issue 38). */
  staffUnconfirmed(day: string) {
    return unconfirmedVisits(this.db, day);
  }

  /**
   * Staff cancel any time before the visit ends (no cut-off): with the full paid amount back, or none. The audit trail
   * records the cancel (and the refund asked for) in the same transaction; `by` says which account and from where.
   */
  async staffCancel(reference: string, refund: boolean, staffEmail: string, by: { userId?: number; ip?: string } = {}, position?: number): Promise<StaffBooking> {
    const now = this.now();
    if (!(await this.isPaid(reference))) {
      // Nothing was paid, so there is nothing to refund whatever was asked.
      const cancelled = await this.db.transaction(async (tx) => cancelUnpaid(tx, await this.unpaidOr404(tx, reference), await this.staffChange(staffEmail, by, now)));
      this.options.log.info({ reference, by: staffEmail }, 'booking without payment: cancelled by staff');
      slotFreed(this.db);
      this.options.onMailQueued();
      return cancelled;
    }
    const located = await this.db.transaction(async (tx) => {
      const before = await this.byReference(tx, reference, true);
      const state = this.stateOf(before, now);
      if (state === 'cancelled') throw refused(409, ManageErrorCode.CHANGE_CLOSED, 'alreadyCancelled');
      if (state === 'over') throw refused(409, ManageErrorCode.CHANGE_CLOSED, 'visitOver');
      const child = position === undefined ? undefined : this.childToCancel(before, position);
      const audit = { actor: staffEmail, actorUserId: by.userId, target: reference, ip: by.ip };
      if (child && remaining(before.children).length > 1) {
        const childSen = refund ? child.amountSen : 0;
        await recordAudit(tx, { ...audit, action: 'booking_cancelled_by_staff', detail: { child: child.position, refund, refundSen: childSen } });
        if (childSen > 0) await recordAudit(tx, { ...audit, action: 'refund', detail: { amountSen: childSen, reason: 'child cancelled by staff' } });
        return this.cancelChildLocked(tx, before, child, staffEmail, childSen);
      }
      // The whole booking: all the children still booked paid, or one child's share when it is the last one left.
      const amountSen = refund ? (child ? child.amountSen : stillBookedSen(paidAmountOf(before.payment), before.children)) : 0;
      await recordAudit(tx, { ...audit, action: 'booking_cancelled_by_staff', detail: { refund, refundSen: amountSen } });
      if (amountSen > 0) await recordAudit(tx, { ...audit, action: 'refund', detail: { amountSen, reason: 'cancelled by staff' } });
      return this.cancelLocked(tx, before, staffEmail, { amountSen, percent: refund ? 100 : 0 });
    });
    this.options.log.info({ paymentId: located.payment.id, by: staffEmail, refund, child: position }, 'booking: cancelled by staff');
    slotFreed(this.db);
    await this.afterCancel(located, position);
    return this.staffGet(reference);
  }
}
