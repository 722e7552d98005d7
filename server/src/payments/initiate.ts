import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  BookingMessage,
  ErrorCode,
  HOLD_MINUTES,
  HoldMessage,
  inMY,
  parseSlotTime,
  PAYMENT_METHODS,
  PaymentFailureCode,
  schoolFeeSen,
  ValidationMessage,
  type ConsentInput,
  type Locale,
  type PaymentMethod,
  type PaymentSession,
  type VisitorDetails,
  WaitlistErrorCode,
  WaitlistMessage,
} from 'shared-api/contract';
import { sha256 } from '../base/crypto';
import { slotClaimed, slotFreed } from '../base/slot-watch';
import type { Db } from '../base/db/connection';
import { AppError } from '../base/errors';
import type { PaymentGateway } from './gateways/types';
import { HoldLimits } from '../holds/hold-limits';
import { grantHoldTime } from '../holds/hold-time';
import { findSlot, refuse, releaseHold, reserveSlot, SlotNotFoundMessage, visibleRefusal, type Hold, type HoldHolder } from '../slots/slot-service';
import type { PaymentsConfig } from './config';
import { claimOwnHold, limitPaymentsPerHold } from './holds';
import { OPEN_STATUSES } from './statuses';
import { payments, type PaymentRow } from './tables';
import { mailLanguage } from '../mail/i18n';
import { PaymentText } from '../mail/payment-texts';
import { assertCurrentNotice, recordConsent } from '../bookings/consents';

export type InitiateInput = VisitorDetails & {
  slotId: number;
  fee: number;
  slotDate: string;
  slotStartTime: string;
  preferredPaymentMethod?: PaymentMethod;
  /** The caller's hold on this slot: the only proof that an open payment for it is the caller's own. */
  holdToken?: string;
  /** A solved hold-limit challenge, when this client is past its free holds. */
  proofOfWork?: string;
  /** The client's address (request.ip): the hold limits count per client. */
  clientAddress: string;
  /** The language the parent books in (English when absent): stored with the payment for their mails. */
  locale?: Locale;
  /** The parent's consent to the privacy notice in force: recorded with the payment, in its transaction. */
  consent: ConsentInput;
};

type Log = { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

const OPEN: PaymentRow['status'][] = [...OPEN_STATUSES];
const newPaymentId = () => `pay_${randomBytes(16).toString('hex')}`;
const newReference = () => `PAY-${randomBytes(8).toString('hex').toUpperCase()}`;
/** A session this close to its end is not handed out again: a fresh initiate starts a new one. */
const REUSE_MARGIN_MS = 60_000;
/** A payment on the caller's own hold renews it (at a new hold's cost) only when less than this is left to pay in. */
const PAYABLE_MS = 10 * 60_000;
/** A payment row this young without a gateway session is another request of the same holder still creating it. */
const CREATING_MS = 60_000;

/** What the gateway's checkout page says is being paid for, in the parent's language ("Assessment visit: <school>, <date>, <time> (GMT+8)"). */
export function gatewayDescription(school: string, start: Date, locale?: Locale): string {
  const L = mailLanguage(locale);
  return L.t('gateway.description', { school: L.school(school), date: L.date(start), time: L.time(start) });
}

const sameDetails = (p: PaymentRow, v: VisitorDetails, amountSen: number) =>
  p.visitorName === v.visitorName &&
  p.visitorEmail === v.visitorEmail &&
  p.visitorContactNo === v.visitorContactNo &&
  p.selectedSchool === v.selectedSchool &&
  p.childName === v.childName &&
  p.childYear === v.childYear &&
  p.amountSen === amountSen;

export const sessionOf = (p: PaymentRow): PaymentSession => ({
  id: p.id,
  paymentId: p.id,
  checkoutUrl: p.checkoutUrl ?? '',
  clientReference: p.reference,
  expiresAt: p.sessionExpiresAt.toISOString(),
  // Always the caller's own: a payment is handed out again only to the caller that sent its hold token.
  holdToken: p.holdToken,
});

/** What the locked part of an initiate decided. */
type Decision =
  | { kind: 'reuse'; payment: PaymentRow }
  | { kind: 'wait'; paymentId: string }
  | { kind: 'created'; payment: PaymentRow; hold: Hold; tookHold: boolean; replaced?: PaymentRow };

/**
 * Starting a payment: hold the slot and write the payment row in ONE transaction (so a failed insert leaves no hold),
 * then open the gateway's checkout session outside it. An open payment is reused or replaced only for the caller
 * holding its hold token: an email address proves nothing.
 */
export class PaymentInitiator {
  constructor(
    private readonly db: Db,
    private readonly gateway: PaymentGateway,
    private readonly config: PaymentsConfig,
    private readonly log: Log,
  ) {}

  async initiate(input: InitiateInput, mayWait = true): Promise<PaymentSession> {
    const { slotId, fee, visitorName, visitorEmail, visitorContactNo, selectedSchool, childName, childYear } = input;
    const visitor: VisitorDetails = { visitorName, visitorEmail, visitorContactNo, selectedSchool, childName, childYear };
    // An outdated notice is refused before anything is held or written.
    assertCurrentNotice(input.consent);
    const price = schoolFeeSen(selectedSchool);
    if (price === undefined) throw new AppError(400, ErrorCode.VALIDATION_ERROR, ValidationMessage.schoolRequired);
    if (fee !== price) throw new AppError(400, ErrorCode.FEE_MISMATCH, PaymentText.feeMismatch(price));

    const slot = await findSlot(this.db, slotId);
    if (!slot || slot.deletedAt) throw new AppError(404, ErrorCode.NOT_FOUND, SlotNotFoundMessage);
    const startMinutes = inMY(slot.startAt).hour() * 60 + inMY(slot.startAt).minute();
    if (inMY(slot.startAt).format('YYYY-MM-DD') !== input.slotDate || parseSlotTime(input.slotStartTime) !== startMinutes)
      throw new AppError(400, ErrorCode.VALIDATION_ERROR, PaymentText.slotMismatch);

    // Booked, or held by another token: refused at once, without queueing behind this client's lock.
    const seen = visibleRefusal(slot, input.holdToken ? sha256(input.holdToken) : null);
    if (seen) return refuse(seen);
    // A free slot the waitlist is offered first is not held for anyone else (the caller's own live hold is theirs).
    const ownLiveHold = !!input.holdToken && slot.holdTokenHash === sha256(input.holdToken) && !!slot.holdExpiresAt && slot.holdExpiresAt > new Date();
    if (!ownLiveHold && (await slotClaimed(this.db, slotId, input.holdToken ? sha256(input.holdToken) : null))) {
      slotFreed(this.db);
      throw new AppError(409, WaitlistErrorCode.WAITLIST_FIRST as ErrorCode, WaitlistMessage.waitlistFirst);
    }

    // The network holding the caller's own hold, as read now: a renewal is charged to it (locked below with the caller's keys).
    const holdingNetwork = input.holdToken && slot.holdTokenHash === sha256(input.holdToken) ? slot.holdClient : null;
    const decision = await this.holdAndRecord(input, visitor, price, holdingNetwork);
    if (decision.kind === 'reuse') return sessionOf(decision.payment);
    if (decision.kind === 'wait') {
      // A double submit with the same hold token: the other request is creating its session right now.
      const other = mayWait ? await this.awaitSession(decision.paymentId) : undefined;
      if (other && sameDetails(other, visitor, price)) return sessionOf(other);
      if (!mayWait) throw new AppError(409, ErrorCode.SLOT_RESERVED, BookingMessage.slotReserved);
      return this.initiate(input, false);
    }
    const { payment, hold, tookHold, replaced } = decision;
    if (replaced?.gatewaySessionId) void this.gateway.cancel(replaced.gatewaySessionId).catch(() => false);
    return this.openSession(payment, hold, tookHold, slot.startAt, input);
  }

  /**
   * The locked part, in one transaction under the holder's advisory locks: reuse, await or replace the caller's own
   * open payment (matched by hold token), use or renew the caller's hold or take a new one, within its hold time,
   * refuse a second slot for the same email or phone, apply the hold limits, and write the payment row. Any refusal
   * or failure rolls all of it back.
   */
  private async holdAndRecord(input: InitiateInput, visitor: VisitorDetails, price: number, holdingNetwork: string | null): Promise<Decision> {
    const { slotId, holdToken } = input;
    const limits = await HoldLimits.load(this.db);
    const holder = limits.holder(input.clientAddress, visitor);
    // Without a hold of its own, this is a new hold: refused at once when it could not stand, before queueing on the locks.
    if (!holdToken) await limits.screen(this.db, holder, input.proofOfWork);
    // A renewal is charged to the network that holds the hold, whichever network asks (else a second network would renew
    // for free), under that network's lock too.
    const payer: HoldHolder = { ...holder, client: holdingNetwork ?? holder.client };
    return limits.transaction(this.db, holder, async (tx): Promise<Decision> => {
      let replaced: PaymentRow | undefined;
      let charged: boolean;
      if (holdToken) {
        const [own] = await tx
          .select()
          .from(payments)
          .where(and(eq(payments.slotId, slotId), eq(payments.holdToken, holdToken), inArray(payments.status, OPEN)))
          .orderBy(desc(payments.createdAt))
          .limit(1);
        if (own && !own.gatewaySessionId && Date.now() - own.createdAt.getTime() < CREATING_MS) return { kind: 'wait', paymentId: own.id };
        const live = own?.gatewaySessionId && own.sessionExpiresAt.getTime() - Date.now() > REUSE_MARGIN_MS;
        if (own && live && sameDetails(own, visitor, price)) {
          // The parent may have switched language before paying again: their mails follow the latest choice.
          const locale = input.locale ?? 'en';
          if (own.locale !== locale) await tx.update(payments).set({ locale }).where(eq(payments.id, own.id));
          return { kind: 'reuse', payment: { ...own, locale } };
        }
        if (own) {
          // The same holder with changed details or a session about to end: the old one is cancelled, its hold carried over.
          const reason = live ? 'Replaced by a new payment with changed details' : 'Replaced by a new payment (the old session was ending)';
          await tx
            .update(payments)
            .set({ status: 'cancelled', failureReason: reason, updatedAt: sql`now()` })
            .where(and(eq(payments.id, own.id), inArray(payments.status, OPEN)));
          replaced = own;
        }
      }
      // The caller's own live hold is used as it is while it leaves time to pay; nearer its end it is renewed, which costs
      // what a new hold costs. Otherwise a new hold is taken (with the same token, when one was given). Either way its
      // end is granted within the hold time this network, email and phone have left on the slot (HOLD_TIME_USED otherwise).
      const ownEnd = holdToken ? await claimOwnHold(tx, slotId, holdToken, holder) : null;
      let hold: Hold;
      if (holdToken && ownEnd) {
        await limitPaymentsPerHold(tx, slotId, holdToken, ownEnd);
        const renew = ownEnd.getTime() - Date.now() < PAYABLE_MS;
        hold = { slotId, token: holdToken, expiresAt: await grantHoldTime(tx, slotId, holdToken, holder, renew ? { minutes: HOLD_MINUTES } : 'keep') };
        charged = renew;
      } else {
        const taken = await reserveSlot(tx, slotId, HOLD_MINUTES, { holder, token: holdToken });
        if ('ok' in taken) return refuse(taken);
        hold = { ...taken, expiresAt: await grantHoldTime(tx, slotId, taken.token, holder, { minutes: HOLD_MINUTES }) };
        charged = true;
      }
      if (await limits.visitorHoldsAnother(tx, holder, slotId)) throw new AppError(409, ErrorCode.VISITOR_HAS_HOLD, HoldMessage.visitorHasHold);
      // A new or renewed hold over the network's free holds stands only with a valid proof of work (HoldLimitError rolls it back).
      if (charged) await limits.admit(tx, ownEnd ? payer : holder, input.proofOfWork);
      const consent = await recordConsent(tx, input.consent, 'web');
      const [payment] = await tx
        .insert(payments)
        .values({
          id: newPaymentId(),
          reference: newReference(),
          slotId,
          status: 'pending',
          amountSen: price,
          method: input.preferredPaymentMethod ?? null,
          ...visitor,
          holdToken: hold.token,
          gateway: this.gateway.name,
          sessionExpiresAt: hold.expiresAt,
          locale: input.locale ?? 'en',
          consentId: consent.id,
        })
        .returning();
      return { kind: 'created', payment, hold, tookHold: !ownEnd, replaced };
    }, holdingNetwork);
  }

  /** Opens the gateway's checkout session for a recorded payment; on any failure the payment fails and a hold taken by this initiate is given back. */
  private async openSession(payment: PaymentRow, hold: Hold, tookHold: boolean, startAt: Date, input: InitiateInput): Promise<PaymentSession> {
    const site = this.config.publicSiteUrl;
    const failureUrl = `${site}/payment/failure?payment_id=${encodeURIComponent(payment.id)}`;
    const preferred = input.preferredPaymentMethod;
    let sessionId: string | undefined;
    try {
      const session = await this.gateway.createSession({
        amountSen: payment.amountSen,
        currency: 'MYR',
        reference: payment.reference,
        // The gateway shows it on its checkout page: in the language the parent books in.
        description: gatewayDescription(payment.selectedSchool, startAt, payment.locale),
        customer: { email: payment.visitorEmail, fullName: payment.visitorName, phone: payment.visitorContactNo },
        allowedMethods: preferred ? [preferred, ...PAYMENT_METHODS.filter((m) => m !== preferred)] : [...PAYMENT_METHODS],
        expiresAt: hold.expiresAt,
        successUrl: `${site}/payment/success?reference=${encodeURIComponent(payment.reference)}`,
        failureUrl,
        // The parent pressed Cancel on the gateway: the page says so (nothing was charged) instead of a failure.
        cancelUrl: `${failureUrl}&error=${PaymentFailureCode.cancelled}`,
        callbackUrl: `${this.config.apiPublicUrl}/api/payment/callback`,
      });
      sessionId = session.sessionId;
      const [saved] = await this.db
        .update(payments)
        .set({ gatewaySessionId: session.sessionId, checkoutUrl: session.checkoutUrl, updatedAt: sql`now()` })
        .where(eq(payments.id, payment.id))
        .returning();
      this.log.info({ paymentId: saved.id, slotId: payment.slotId, amountSen: payment.amountSen }, 'payment: initiated');
      return sessionOf(saved);
    } catch (err) {
      this.log.error({ err: (err as Error).message, paymentId: payment.id }, 'payment: gateway session could not be created');
      if (sessionId) void this.gateway.cancel(sessionId).catch(() => false);
      await this.db
        .update(payments)
        .set({ status: 'failed', failureReason: 'The payment gateway could not be reached', updatedAt: sql`now()` })
        .where(eq(payments.id, payment.id));
      // A hold the visitor already had stays theirs for a retry; one taken here is given back.
      if (tookHold && (await releaseHold(this.db, payment.slotId, hold.token))) slotFreed(this.db);
      throw new AppError(502, ErrorCode.GATEWAY_ERROR, BookingMessage.serviceUnavailable);
    }
  }

  /** The other request's payment once it has its gateway session (or has ended), waiting up to 3 s. */
  private async awaitSession(paymentId: string): Promise<PaymentRow | undefined> {
    for (let i = 0; i < 20; i++) {
      const [row] = await this.db
        .select()
        .from(payments)
        .where(and(eq(payments.id, paymentId), gt(payments.sessionExpiresAt, sql`now()`)));
      if (!row || !OPEN.includes(row.status)) return undefined;
      if (row.gatewaySessionId) return row;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    return undefined;
  }
}
