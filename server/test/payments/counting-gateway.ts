import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { GatewayError, type GatewayState, type PaymentGateway, type RefundResult, type SessionStatus } from '../../src/payments/gateways/types';
import { payments } from '../../src/payments/tables';
import { insertSlot, visitor } from './support';
import { insertConsent } from '../helpers';

/** What every CountingGateway sharing it saw: calls per session, and calls for one session that overlapped in time. */
export class GatewayLedger {
  readonly statusCalls: string[] = [];
  readonly refundCalls: { sessionId: string; amountSen: number }[] = [];
  /** Sessions the gateway answers for; absent → pending. */
  readonly states = new Map<string, GatewayState>();
  /** Sessions whose refund the acquirer refuses. */
  readonly refundsFail = new Set<string>();
  /** Sessions whose refund goes through but whose answer is lost (a timeout after the gateway acted). */
  readonly refundAnswersLost = new Set<string>();
  overlaps = 0;
  private readonly inFlight = new Set<string>();

  async track<T>(sessionId: string, delayMs: number, fn: () => T): Promise<T> {
    if (this.inFlight.has(sessionId)) this.overlaps++;
    this.inFlight.add(sessionId);
    try {
      await new Promise((r) => setTimeout(r, delayMs));
      return fn();
    } finally {
      this.inFlight.delete(sessionId);
    }
  }

  statusCallsFor = (sessionId: string) => this.statusCalls.filter((id) => id === sessionId).length;
}

/**
 * A gateway that only answers status and refund calls from a ledger and counts them (one per API process under test,
 * all sharing one ledger), with the most calls it had in flight at once.
 */
export class CountingGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  calls = 0;
  maxConcurrent = 0;
  private current = 0;

  constructor(
    readonly ledger: GatewayLedger,
    private readonly delayMs = () => 1,
  ) {}

  private async call<T>(sessionId: string, fn: () => T): Promise<T> {
    this.calls++;
    this.maxConcurrent = Math.max(this.maxConcurrent, ++this.current);
    try {
      return await this.ledger.track(sessionId, this.delayMs(), fn);
    } finally {
      this.current--;
    }
  }

  fetchStatus(sessionId: string): Promise<SessionStatus> {
    this.ledger.statusCalls.push(sessionId);
    return this.call(sessionId, () => ({ state: this.ledger.states.get(sessionId) ?? 'pending', method: null, amountSen: null }));
  }

  refund(sessionId: string, amountSen: number): Promise<RefundResult> {
    this.ledger.refundCalls.push({ sessionId, amountSen });
    return this.call(sessionId, () => {
      const { states, refundsFail, refundAnswersLost } = this.ledger;
      if (refundsFail.has(sessionId)) throw new GatewayError('refund refused by the acquirer');
      if (states.get(sessionId) === 'refunded') throw new GatewayError('only a paid purchase can be refunded');
      states.set(sessionId, 'refunded');
      if (refundAnswersLost.has(sessionId)) throw new GatewayError('refund call timed out');
      return { refundId: `rf_${sessionId}`, settled: true };
    });
  }

  async cancel(): Promise<boolean> {
    return true;
  }

  async ping(): Promise<boolean> {
    return true;
  }

  createSession(): never {
    throw new Error('not used: payments are written directly');
  }

  verifyCallback(): never {
    throw new Error('not used');
  }
}

let slotHours = 72;

/** Writes `count` open payments (gateway session `s{prefix}{i}`) for one new slot, as initiate leaves them. */
export async function insertOpenPayments(
  database: DatabaseHandle,
  count: number,
  prefix: string,
  extra: Partial<typeof payments.$inferInsert> = {},
): Promise<string[]> {
  const slot = await insertSlot(database, slotHours++);
  const sessionIds = Array.from({ length: count }, (_, i) => `s${prefix}${i}`);
  const consentIds = await Promise.all(Array.from({ length: count }, () => insertConsent(database.db)));
  const rows = Array.from({ length: count }, (_, i) => ({
    id: `pay_${prefix}${i}`,
    reference: `PAY-${prefix.toUpperCase()}${i}`,
    slotId: slot.id,
    status: 'pending' as const,
    amountSen: 7500,
    ...visitor,
    visitorEmail: `${prefix}${i}@example.com`,
    holdToken: `hold-${prefix}${i}`,
    gateway: 'sandbox',
    gatewaySessionId: sessionIds[i],
    sessionExpiresAt: sql`now() + interval '15 minutes'` as unknown as Date,
    consentId: consentIds[i],
    ...extra,
  }));
  for (let i = 0; i < rows.length; i += 200) await database.db.insert(payments).values(rows.slice(i, i + 200));
  return sessionIds;
}
