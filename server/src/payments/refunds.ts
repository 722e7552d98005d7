import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../base/db/connection';
import type { JobEngine, JobOptions } from '../base/jobs/engine';
import { appendBookingEvent } from '../bookings';
import type { PaymentGateway } from './gateways/types';
import { refundAmountOf, type Log } from './state';
import { paymentChildren, payments, type PaymentRow } from './tables';

/**
 * A refund is one job of the `refund` queue per payment (singleton key: the payment id; the queue is stately, so one
 * attempt runs at a time in all processes). A refusal is retried by pg-boss after 1–2 minutes, doubling, 9 times (about
 * half a day); then the job fails and shows in the staff alerts and /health, and a reconcile pass asks again 6 hours later.
 */
export const REFUND_JOB: JobOptions = { retryLimit: 9, retryDelay: 60, retryBackoff: true, expireInSeconds: 300 };
/** A refund the gateway is still processing (CHIP's pending_refund) is looked at again this often (status only). */
export const REFUND_CHECK_SECONDS = 30 * 60;
/** A refund whose job failed (retries spent) is asked for again this long after. */
export const FAILED_REFUND_RETRY_HOURS = 6;
/** How often a waiting caller looks whether the refund's attempt has ended. */
const SETTLE_POLL_MS = 100;

type RefundData = { paymentId: string };
/** One cancelled child's share (issue 37): the child's row says how much and how far it has got. */
type ChildRefundData = { paymentId: string; position: number };
const childKey = (paymentId: string, position: number) => `${paymentId}/${position}`;
/** The same key in SQL, from a payment id and a child's position (the staff alerts read a job's next try by it). */
export const childRefundKeySql = (paymentId: SQL, position: SQL): SQL => sql`${paymentId} || '/' || ${position}`;

/** The refund queue: requests (after the change that owes the money commits) and the handler that calls the gateway. */
export class Refunds {
  constructor(
    private readonly db: Db,
    private readonly gateway: PaymentGateway,
    private readonly jobs: JobEngine,
    private readonly log: Log,
  ) {
    jobs.handle<RefundData>('refund', (job) => this.attempt(job.data.paymentId));
    jobs.handle<ChildRefundData>('child-refund', (job) => this.attemptChild(job.data.paymentId, job.data.position));
  }

  /** Queues one cancelled child's refund (issue 37; nothing when one is already waiting) and wakes this process's worker. */
  async requestChild(paymentId: string, position: number): Promise<void> {
    await this.jobs.send<ChildRefundData>('child-refund', { paymentId, position }, { ...REFUND_JOB, singletonKey: childKey(paymentId, position) });
    this.jobs.notify('child-refund');
  }

  /** Queues a child's refund and waits up to `waitMs` for its first attempt to end (the parent sees "refunded" at once when it can). */
  async requestChildAndWait(p: PaymentRow, position: number, waitMs: number): Promise<void> {
    const where = and(eq(paymentChildren.paymentId, p.id), eq(paymentChildren.position, position));
    const [before] = await this.db.select().from(paymentChildren).where(where);
    await this.requestChild(p.id, position);
    const until = Date.now() + waitMs;
    for (;;) {
      const [now] = await this.db.select().from(paymentChildren).where(where);
      if (now.refundState !== 'pending' || now.refundAttempts > before.refundAttempts || Date.now() >= until) return;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  /**
   * One attempt at a child's share: the gateway gives back that part of the payment (CHIP's partial refund). A refusal
   * is recorded on the child (staff see it) and thrown for pg-boss to retry.
   */
  private async attemptChild(paymentId: string, position: number): Promise<number> {
    const where = and(eq(paymentChildren.paymentId, paymentId), eq(paymentChildren.position, position));
    const [[child], [p]] = await Promise.all([this.db.select().from(paymentChildren).where(where), this.db.select().from(payments).where(eq(payments.id, paymentId))]);
    if (!child || child.refundState !== 'pending' || !child.refundSen || !p?.gatewaySessionId) return 0;
    try {
      const answer = await this.gateway.refund(p.gatewaySessionId, child.refundSen);
      return this.db.transaction(async (tx) => {
        const [done] = await tx
          .update(paymentChildren)
          .set({ refundState: answer.settled ? 'refunded' : 'requested', gatewayRefundId: answer.refundId })
          .where(and(where, eq(paymentChildren.refundState, 'pending')))
          .returning();
        if (done && answer.settled) await appendBookingEvent(tx, paymentId, { kind: 'child_refunded', actor: 'system', amountSen: done.refundSen, childName: done.childName });
        this.log.info({ paymentId, child: position, settled: answer.settled }, 'payment: child refund taken by the gateway');
        return done ? 1 : 0;
      });
    } catch (err) {
      const error = String((err as Error).message ?? err).slice(0, 500);
      await this.db
        .update(paymentChildren)
        .set({ refundAttempts: sql`${paymentChildren.refundAttempts} + 1`, refundLastError: error })
        .where(and(where, eq(paymentChildren.refundState, 'pending')));
      this.log.error({ paymentId, child: position, err: error }, 'payment: child refund failed; retried later');
      throw new Error(error);
    }
  }

  /** Queues the payment's refund (nothing when one is already waiting) and wakes this process's worker. */
  async request(paymentId: string, startAfterSeconds?: number): Promise<void> {
    await this.jobs.send<RefundData>('refund', { paymentId }, { ...REFUND_JOB, singletonKey: paymentId, ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}) });
    if (!startAfterSeconds) this.jobs.notify('refund');
  }

  /**
   * Queues the refund and waits up to `waitMs` for its first attempt to end (a parent who cancels sees "refunded" when
   * the gateway answers at once); resolves with the payment as it then is.
   */
  async requestAndWait(p: PaymentRow, waitMs: number): Promise<PaymentRow> {
    await this.request(p.id);
    const until = Date.now() + waitMs;
    for (;;) {
      const [now] = await this.db.select().from(payments).where(eq(payments.id, p.id));
      const attempted = now.status !== 'refund_pending' || now.refundAttempts > p.refundAttempts || (now.refundRequestedAt && !p.refundRequestedAt);
      if (attempted || Date.now() >= until) return now;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  /**
   * Refunds owed without a job (the process stopped between the change and its request, or the last job failed
   * FAILED_REFUND_RETRY_HOURS ago) are queued again; run by each reconcile pass. Resolves with how many.
   */
  async requestMissing(): Promise<number> {
    const owed = await this.db.select({ id: payments.id }).from(payments).where(eq(payments.status, 'refund_pending'));
    const missing = await this.jobs.keysWithoutJob('refund', owed.map((p) => p.id), FAILED_REFUND_RETRY_HOURS);
    for (const id of missing) await this.request(id);
    // Children's shares owed without a job (issue 37), the same way.
    const owedChildren = await this.db.select({ paymentId: paymentChildren.paymentId, position: paymentChildren.position }).from(paymentChildren).where(eq(paymentChildren.refundState, 'pending'));
    const missingChildren = await this.jobs.keysWithoutJob('child-refund', owedChildren.map((c) => childKey(c.paymentId, c.position)), FAILED_REFUND_RETRY_HOURS);
    for (const key of missingChildren) {
      const child = owedChildren.find((c) => childKey(c.paymentId, c.position) === key)!;
      await this.requestChild(child.paymentId, child.position);
    }
    if (missing.length + missingChildren.length) this.log.warn({ payments: missing.length, children: missingChildren.length }, 'refunds: owed refunds without a job queued again');
    return missing.length + missingChildren.length;
  }

  /** One attempt: a refusal is recorded (staff see it) and thrown, for pg-boss to retry; resolves 1 when refunded. */
  private async attempt(paymentId: string): Promise<number> {
    const [p] = await this.db.select().from(payments).where(eq(payments.id, paymentId));
    if (!p || p.status !== 'refund_pending' || !p.gatewaySessionId) return 0;
    const sessionId = p.gatewaySessionId;
    // The gateway took the refund already and is finishing it: only ever ask how it went, never for it again.
    if (p.refundRequestedAt) return this.checkRequested(p);
    try {
      const answer = await this.gateway.refund(sessionId, refundAmountOf(p));
      return answer.settled ? this.markRefunded(p.id, answer.refundId) : this.markRequested(p.id, answer.refundId);
    } catch (err) {
      // An earlier attempt may have gone through with its answer lost (timeout, crash): the gateway then says refunded
      // (or that it is processing it).
      const status = await this.gateway.fetchStatus(sessionId).catch(() => null);
      if (status?.state === 'refunded') return this.markRefunded(p.id, null);
      if (status?.refundPending) return this.markRequested(p.id, null);
      const error = String((err as Error).message ?? err).slice(0, 500);
      await this.db.transaction(async (tx) => {
        const [failed] = await tx
          .update(payments)
          .set({ refundAttempts: sql`${payments.refundAttempts} + 1`, refundLastError: error, updatedAt: sql`now()` })
          .where(and(eq(payments.id, p.id), eq(payments.status, 'refund_pending')))
          .returning();
        if (failed?.bookingStatus) await appendBookingEvent(tx, p.id, { kind: 'refund_failed', actor: 'system', amountSen: refundAmountOf(failed) });
      });
      this.log.error({ paymentId: p.id, err: error }, 'payment: refund failed; retried later');
      throw new Error(error);
    }
  }

  /** A refund the gateway is processing: refunded once it says so, else looked at again in REFUND_CHECK_SECONDS. */
  private async checkRequested(p: PaymentRow): Promise<number> {
    const status = await this.gateway.fetchStatus(p.gatewaySessionId!).catch(() => null);
    if (status?.state === 'refunded') return this.markRefunded(p.id, null);
    await this.request(p.id, REFUND_CHECK_SECONDS);
    return 0;
  }

  /** The gateway accepted the refund but has not finished it: recorded so that it is never asked for again. */
  private async markRequested(id: string, gatewayRefundId: string | null): Promise<number> {
    await this.db
      .update(payments)
      .set({
        gatewayRefundId: sql`coalesce(${gatewayRefundId}::text, ${payments.gatewayRefundId})`,
        refundRequestedAt: sql`coalesce(${payments.refundRequestedAt}, now())`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(payments.id, id), eq(payments.status, 'refund_pending')));
    this.log.info({ paymentId: id }, 'payment: refund accepted by the gateway, still processing');
    await this.request(id, REFUND_CHECK_SECONDS);
    return 0;
  }

  private async markRefunded(id: string, gatewayRefundId: string | null): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [done] = await tx
        .update(payments)
        .set({ status: 'refunded', gatewayRefundId: sql`coalesce(${gatewayRefundId}::text, ${payments.gatewayRefundId})`, updatedAt: sql`now()` })
        .where(and(eq(payments.id, id), eq(payments.status, 'refund_pending')))
        .returning();
      if (done?.bookingStatus) await appendBookingEvent(tx, id, { kind: 'refunded', actor: 'system', amountSen: refundAmountOf(done) });
      return done ? 1 : 0;
    });
  }
}
