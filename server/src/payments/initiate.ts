import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  BookingMessage,
  ErrorCode,
  PAYMENT_METHODS,
  PaymentFailureCode,
  type ConsentInput,
  type Locale,
  type PaymentMethod,
  type PaymentSession,
  type SiblingDetails,
  type VisitorDetails,
} from 'shared-api/contract';
import type { Db, DbOrTx } from '../base/db/connection';
import { AppError } from '../base/errors';
import type { PaymentGateway } from './gateways/types';
import { Checkout, priceOf, priceOfChildren, type Hold, type PaymentHold } from '../checkout';
import { bookedChildOf, childRows, childrenAsked, childrenOf, sameChildren } from './children';
import { toPublicSlot } from '../slots';
import type { SlotRow } from '../slots';
import type { PaymentsConfig } from './config';
import { limitPaymentsPerHold } from './payments-per-hold';
import { OPEN_STATUSES } from './statuses';
import { paymentChildren, payments, type PaymentChildRow, type PaymentRow } from './tables';
import { mailLanguage } from '../mail';
import { assertCurrentNotice, recordConsent } from '../bookings';

export type InitiateInput = VisitorDetails & {
  slotId: number;
  /** The spec's fee, date and start time, accepted from clients that send them; the server's own rows decide (and are answered). */
  fee?: number;
  slotDate?: string;
  slotStartTime?: string;
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
  /** Brothers and sisters at the same time (issue 37): one seat each under the one hold, one payment for all. */
  siblings?: SiblingDetails[];
};

type Log = { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

const OPEN: PaymentRow['status'][] = [...OPEN_STATUSES];
const newPaymentId = () => `pay_${randomBytes(16).toString('hex')}`;
const newReference = () => `PAY-${randomBytes(8).toString('hex').toUpperCase()}`;
/** A session this close to its end is not handed out again: a fresh initiate starts a new one. */
const REUSE_MARGIN_MS = 60_000;
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

/** The payment's session as its caller gets it, with what the server charges and for which visit (its own rows, not the request's). */
export const sessionOf = (p: PaymentRow, slot: SlotRow, children: PaymentChildRow[] = []): PaymentSession => ({
  id: p.id,
  paymentId: p.id,
  checkoutUrl: p.checkoutUrl ?? '',
  clientReference: p.reference,
  expiresAt: p.sessionExpiresAt.toISOString(),
  // Always the caller's own: a payment is handed out again only to the caller that sent its hold token.
  holdToken: p.holdToken,
  fee: p.amountSen,
  slotDate: toPublicSlot(slot).date,
  slotStartTime: toPublicSlot(slot).startTime,
  ...(children.length > 0 && { children: children.map(bookedChildOf) }),
});

/** What the locked part of an initiate decided. */
type Decision =
  | { kind: 'reuse'; payment: PaymentRow }
  | { kind: 'wait'; paymentId: string }
  | { kind: 'created'; payment: PaymentRow; hold: Hold; tookHold: boolean; replaced?: PaymentRow };

/** What a payment's hold costs in the transaction: the caller's own or a new one, through the checkout. */
type TakeHold = () => Promise<PaymentHold>;

/**
 * Starting a payment: the checkout holds the slot (the caller's own hold, or a new one by the same rules as a reserve)
 * and the payment row is written in its transaction (so a failed insert leaves no hold); then the gateway's checkout
 * session is opened outside it. The price and the visit's time are the server's. An open payment is reused or replaced
 * only for the caller holding its hold token: an email address proves nothing.
 */
export class PaymentInitiator {
  constructor(
    private readonly db: Db,
    private readonly gateway: PaymentGateway,
    private readonly config: PaymentsConfig,
    private readonly log: Log,
  ) {}

  async initiate(input: InitiateInput, mayWait = true): Promise<PaymentSession> {
    const { slotId, visitorName, visitorEmail, visitorContactNo, selectedSchool, childName, childYear } = input;
    const visitor: VisitorDetails = { visitorName, visitorEmail, visitorContactNo, selectedSchool, childName, childYear };
    // An outdated notice or a school outside the group is refused before anything is held or written.
    assertCurrentNotice(input.consent);
    const siblings = input.siblings?.length ? input.siblings : undefined;
    // One child: the school's fee; several (issue 37): each child's fee less its school's sibling discount.
    const price = siblings ? priceOfChildren(childrenAsked(visitor, siblings)).totalSen : priceOf(selectedSchool);
    const checkout = await Checkout.for(this.db);
    const { result: decision, slot } = await checkout.forPayment(
      { slotId, seats: 1 + (siblings?.length ?? 0), token: input.holdToken, ip: input.clientAddress, visitor, proof: input.proofOfWork },
      (tx, takeHold) => this.record(tx, takeHold, input, visitor, price),
    );
    if (decision.kind === 'reuse') return sessionOf(decision.payment, slot, await childrenOf(this.db, decision.payment.id));
    if (decision.kind === 'wait') {
      // A double submit with the same hold token: the other request is creating its session right now.
      const other = mayWait ? await this.awaitSession(decision.paymentId) : undefined;
      const otherChildren = other ? await childrenOf(this.db, other.id) : [];
      if (other && sameDetails(other, visitor, price) && sameChildren(otherChildren, visitor, siblings)) return sessionOf(other, slot, otherChildren);
      if (!mayWait) throw new AppError(409, ErrorCode.SLOT_RESERVED, BookingMessage.slotReserved);
      return this.initiate(input, false);
    }
    const { payment, hold, tookHold, replaced } = decision;
    if (replaced?.gatewaySessionId) void this.gateway.cancel(replaced.gatewaySessionId).catch(() => false);
    return this.openSession(checkout, payment, hold, tookHold, slot, input);
  }

  /**
   * The payment's part of the checkout's transaction (under the holder's locks): reuse, await or replace the caller's
   * own open payment (matched by hold token), else take the hold through the checkout, at most MAX_PAYMENTS_PER_HOLD
   * payments on one hold, and write the payment row with its consent. Any refusal rolls all of it back.
   */
  private async record(tx: DbOrTx, takeHold: TakeHold, input: InitiateInput, visitor: VisitorDetails, price: number): Promise<Decision> {
    const { slotId, holdToken } = input;
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
      if (own && live && sameDetails(own, visitor, price) && sameChildren(await childrenOf(tx, own.id), visitor, input.siblings)) {
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
    const { hold, tookHold, ownEnd } = await takeHold();
    if (ownEnd) await limitPaymentsPerHold(tx, slotId, hold.token, ownEnd);
    const consent = await recordConsent(tx, input.consent, 'web');
    const [payment] = await tx
      .insert(payments)
      .values({
        id: newPaymentId(),
        reference: newReference(),
        // The seat held: another free seat of the time asked when the one asked went meanwhile (issue 37).
        slotId: hold.slotId,
        status: 'pending',
        amountSen: price,
        method: input.preferredPaymentMethod ?? null,
        ...visitor,
        holdToken: hold.token,
        gateway: this.gateway.name,
        sessionExpiresAt: hold.expiresAt,
        locale: input.locale ?? 'en',
        consentId: consent.id,
        // "Also send my confirmation and reminder on WhatsApp", given with that consent (issue 38).
        whatsappOptInAt: input.consent.whatsapp ? consent.givenAt : null,
      })
      .returning();
    const children = childRows(payment.id, visitor, input.siblings, hold.slotIds ?? [hold.slotId]);
    if (children.length > 0) await tx.insert(paymentChildren).values(children);
    return { kind: 'created', payment, hold, tookHold, replaced };
  }

  /** Opens the gateway's checkout session for a recorded payment; on any failure the payment fails and a hold taken by this initiate is given back. */
  private async openSession(checkout: Checkout, payment: PaymentRow, hold: Hold, tookHold: boolean, slot: SlotRow, input: InitiateInput): Promise<PaymentSession> {
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
        description: gatewayDescription(payment.selectedSchool, slot.startAt, payment.locale),
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
      return sessionOf(saved, slot, await childrenOf(this.db, saved.id));
    } catch (err) {
      this.log.error({ err: (err as Error).message, paymentId: payment.id }, 'payment: gateway session could not be created');
      if (sessionId) void this.gateway.cancel(sessionId).catch(() => false);
      await this.db
        .update(payments)
        .set({ status: 'failed', failureReason: 'The payment gateway could not be reached', updatedAt: sql`now()` })
        .where(eq(payments.id, payment.id));
      // A hold the visitor already had stays theirs for a retry; one taken here is given back.
      if (tookHold) await checkout.release(payment.slotId, hold.token);
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
