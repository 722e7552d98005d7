import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  brand,
  BookingMessage,
  ErrorCode,
  HOLD_MINUTES,
  inMY,
  parseSlotTime,
  PAYMENT_METHODS,
  ValidationMessage,
  type Locale,
  type PaymentMethod,
  type PaymentSession,
  type VisitorDetails,
} from 'shared-api/contract';
import { sha256 } from '../auth/sessions';
import type { Db } from '../db/connection';
import { AppError } from '../errors';
import type { PaymentGateway } from '../gateways/types';
import { HoldLimits, HoldLimitText } from '../limits/hold-limits';
import { findSlot, releaseHold, reserveSlot, SlotNotFoundMessage, visibleRefusal, type Hold, type Refusal } from '../slots/slot-service';
import type { PaymentsConfig } from './config';
import { renewOwnHold } from './holds';
import { OPEN_STATUSES } from './statuses';
import { payments, type PaymentRow } from './tables';
import { PaymentText } from './texts';

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
};

type Log = { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

const OPEN: PaymentRow['status'][] = [...OPEN_STATUSES];
const newPaymentId = () => `pay_${randomBytes(16).toString('hex')}`;
const newReference = () => `PAY-${randomBytes(8).toString('hex').toUpperCase()}`;
/** A session this close to its end is not handed out again: a fresh initiate starts a new one. */
const REUSE_MARGIN_MS = 60_000;
/** A payment row this young without a gateway session is another request of the same holder still creating it. */
const CREATING_MS = 60_000;

const refuse = (r: Refusal): never => {
  throw new AppError(r.status, r.code, r.message);
};

export const feeFor = (school: string): number | undefined => brand.schools.find((s) => s.name === school)?.feeSen;

const sameDetails = (p: PaymentRow, v: VisitorDetails, amountSen: number) =>
  p.visitorName === v.visitorName &&
  p.visitorEmail === v.visitorEmail &&
  p.visitorContactNo === v.visitorContactNo &&
  p.selectedSchool === v.selectedSchool &&
  p.amountSen === amountSen;

export const sessionOf = (p: PaymentRow): PaymentSession => ({
  id: p.id,
  paymentId: p.id,
  checkoutUrl: p.checkoutUrl ?? '',
  clientReference: p.reference,
  expiresAt: p.sessionExpiresAt.toISOString(),
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
    const { slotId, fee, visitorName, visitorEmail, visitorContactNo, selectedSchool } = input;
    const visitor: VisitorDetails = { visitorName, visitorEmail, visitorContactNo, selectedSchool };
    const price = feeFor(selectedSchool);
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

    const decision = await this.holdAndRecord(input, visitor, price);
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
   * open payment (matched by hold token), renew the caller's hold or take a new one, refuse a second slot for the same
   * email or phone, apply the hold limits, and write the payment row. Any refusal or failure rolls all of it back.
   */
  private async holdAndRecord(input: InitiateInput, visitor: VisitorDetails, price: number): Promise<Decision> {
    const { slotId, holdToken } = input;
    const limits = await HoldLimits.load(this.db);
    const holder = limits.holder(input.clientAddress, visitor);
    return this.db.transaction(async (tx): Promise<Decision> => {
      await limits.lock(tx, holder);
      let replaced: PaymentRow | undefined;
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
      // The caller's own live hold is renewed; otherwise a new one is taken (with the same token, when one was given).
      const renewed = holdToken ? await renewOwnHold(tx, slotId, holdToken, HOLD_MINUTES, holder) : null;
      const hold = renewed ?? (await reserveSlot(tx, slotId, HOLD_MINUTES, { holder, token: holdToken }));
      if ('ok' in hold) return refuse(hold);
      if (await limits.visitorHoldsAnother(tx, holder, slotId)) throw new AppError(409, ErrorCode.VISITOR_HAS_HOLD, HoldLimitText.visitorHasHold);
      // A new hold over the client's free holds stands only with a valid proof of work (HoldLimitError rolls it back).
      if (!renewed) await limits.admit(tx, holder, input.proofOfWork);
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
        })
        .returning();
      return { kind: 'created', payment, hold, tookHold: !renewed, replaced };
    });
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
        description: `Assessment visit: ${payment.selectedSchool}, ${inMY(startAt).format('D MMM YYYY, h:mm A')} (GMT+8)`,
        customer: { email: payment.visitorEmail, fullName: payment.visitorName, phone: payment.visitorContactNo },
        allowedMethods: preferred ? [preferred, ...PAYMENT_METHODS.filter((m) => m !== preferred)] : [...PAYMENT_METHODS],
        expiresAt: hold.expiresAt,
        successUrl: `${site}/payment/success?reference=${encodeURIComponent(payment.reference)}`,
        failureUrl,
        cancelUrl: failureUrl,
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
      if (tookHold) await releaseHold(this.db, payment.slotId, hold.token);
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
