import { and, asc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../base/db/connection';
import type { PaymentGateway } from './gateways/types';
import { gatewayDue, isOpen, type Log, type PaymentStates } from './state';
import { payments, type PaymentRow } from './tables';

/** How long after the session's end an unanswered payment is given up (callbacks in flight may still land). */
const EXPIRY_GRACE_MS = 30_000;
/** The gateway is asked about one payment at most once in this window, however many browsers poll on any replica. */
const STATUS_FRESH_MS = 5_000;

const notCheckedSince = (cutoff: SQL) => or(isNull(payments.lastCheckedAt), lt(payments.lastCheckedAt, cutoff)) as SQL;

/** Bringing payments in line with the gateway: which are due a check (claimed once across processes) and the check itself. */
export class PaymentReconciliation {
  constructor(
    private readonly db: Db,
    private readonly gateway: PaymentGateway,
    private readonly states: PaymentStates,
    private readonly log: Log,
    /** Minimum time between two gateway status calls for one payment (status polls and reconcilers alike). */
    private readonly statusFreshMs = STATUS_FRESH_MS,
  ) {}

  private freshCutoff(): SQL {
    return sql`now() - make_interval(secs => ${this.statusFreshMs / 1000})`;
  }

  /**
   * Asks the gateway about one open payment and applies its answer; an unanswered session past its end is cancelled
   * at the gateway and failed here (hold released).
   */
  async reconcile(p: PaymentRow): Promise<PaymentRow> {
    if (!isOpen(p.status)) return p;
    if (!p.gatewaySessionId) {
      // The process stopped between the payment row and the gateway session: no checkout exists to pay.
      if (Date.now() - p.createdAt.getTime() < 120_000) return p;
      return (await this.states.applyState(p.id, 'failed')).payment;
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
      return (await this.states.applyState(p.id, 'expired')).payment;
    }
    return (await this.states.applyState(p.id, status.state, { method: status.method, amountSen: status.amountSen })).payment;
  }

  /**
   * Claims up to `limit` payments due a gateway check, least recently checked first, by setting last_checked_at in the
   * statement that picks them (rows another process is claiming are skipped). Not checked within the status window,
   * nor since `passStart` when given (so one pass looks at each payment once).
   */
  async claimDue(limit: number, passStart?: Date): Promise<PaymentRow[]> {
    const fresh = this.freshCutoff();
    const cutoff = passStart ? sql`least(${passStart.toISOString()}::timestamptz, ${fresh})` : fresh;
    const due = this.db
      .select({ id: payments.id })
      .from(payments)
      .where(and(gatewayDue, notCheckedSince(cutoff)))
      .orderBy(sql`${payments.lastCheckedAt} ASC NULLS FIRST`, asc(payments.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    return this.db.update(payments).set({ lastCheckedAt: sql`now()` }).where(inArray(payments.id, due)).returning();
  }

  /**
   * For a status poll: an open payment is reconciled with the gateway only when this call wins the
   * conditional UPDATE of last_checked_at (not checked in the last few seconds); otherwise it is answered as stored.
   */
  async refreshForStatus(p: PaymentRow): Promise<PaymentRow> {
    if (!isOpen(p.status)) return p;
    const [claimed] = await this.db
      .update(payments)
      .set({ lastCheckedAt: sql`now()` })
      .where(and(eq(payments.id, p.id), gatewayDue, notCheckedSince(this.freshCutoff())))
      .returning();
    return claimed ? this.reconcile(claimed) : p;
  }
}
