jest.setTimeout(120_000);
import { eq, inArray, isNull, sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { JobEngine } from '../../src/base/jobs/engine';
import { failedJobs } from '../../src/base/jobs/stats';
import { Reconciler } from '../../src/payments/reconciler';
import { PaymentService } from '../../src/payments/service';
import { payments } from '../../src/payments/tables';
import { queryRows } from '../helpers';
import { CountingGateway, GatewayLedger, insertOpenPayments } from './counting-gateway';
import { freshPglite, makeRefundDue, nextRefundTry, throwawayPostgres, type Driver } from './support';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const paymentsConfig = loadConfig({}).payments;

const engines: JobEngine[] = [];
/** One API process as the reconciliation sees it: its own gateway client, job engine, payment service and reconciler. */
function processOn(database: DatabaseHandle, ledger: GatewayLedger, delayMs = () => 1) {
  const gateway = new CountingGateway(ledger, delayMs);
  const jobs = new JobEngine(database, silent, { supervise: false, schedule: false });
  engines.push(jobs);
  const service = new PaymentService(database.db, gateway, paymentsConfig, silent, jobs);
  return { gateway, jobs, service, reconciler: new Reconciler(service, 0, silent, { batchSize: 50, concurrency: 4 }) };
}
/** Seconds until the payment's waiting refund job runs. */
const secondsToNextRefund = async (database: DatabaseHandle, paymentId: string) => ((await nextRefundTry(database, paymentId))!.getTime() - Date.now()) / 1000;

const row = async (database: DatabaseHandle, sessionId: string) =>
  (await database.db.select().from(payments).where(eq(payments.gatewaySessionId, sessionId)))[0];
describe.each(['pglite', 'postgres'] as Driver[])('reconciliation on %s', (driver) => {
  // Two handles: on PostgreSQL two pools of one database (two API processes); PGlite allows one process, so both share it.
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;
  let ledger: GatewayLedger;

  beforeAll(async () => {
    if (driver === 'postgres') {
      const pgdb = await throwawayPostgres('payments_reconcile');
      drop = pgdb.drop;
      first = await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 6 });
      second = await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 6 });
      await migrate(first);
    } else {
      first = second = await freshPglite();
    }
  });
  afterAll(async () => {
    await first?.close();
    if (second !== first) await second?.close();
    await drop?.();
  });
  beforeEach(async () => {
    ledger = new GatewayLedger();
    await first.db.execute(sql`TRUNCATE payments, payment_events, mail_outbox CASCADE`);
    await first.exec(`DELETE FROM pgboss.job WHERE name = 'refund'`);
  });
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((jobs) => jobs.stop()));
  });

  it('one pass looks at every open payment of a 450 backlog once, least recently checked first, 4 gateway calls at a time', async () => {
    const neverChecked = await insertOpenPayments(first, 350, 'new');
    const checkedAnHourAgo = await insertOpenPayments(first, 100, 'old', { lastCheckedAt: sql`now() - interval '1 hour'` as unknown as Date });
    // Not the pass's to check: refunds owed (their own queue's), and finished payments.
    await insertOpenPayments(first, 3, 'backoff', { status: 'refund_pending' });
    await insertOpenPayments(first, 2, 'done', { status: 'completed' });
    for (const id of neverChecked.slice(0, 10)) ledger.states.set(id, 'failed');

    const a = processOn(first, ledger);
    expect(await a.reconciler.runOnce()).toBe(10);

    expect(ledger.statusCalls).toHaveLength(450);
    expect(new Set(ledger.statusCalls)).toEqual(new Set([...neverChecked, ...checkedAnHourAgo]));
    expect(new Set(ledger.statusCalls.slice(0, 350))).toEqual(new Set(neverChecked));
    expect(a.gateway.maxConcurrent).toBe(4);
    expect(ledger.refundCalls).toHaveLength(0);
    const failed = await first.db.select().from(payments).where(eq(payments.status, 'failed'));
    expect(failed.map((p) => p.gatewaySessionId).sort()).toEqual(neverChecked.slice(0, 10).sort());
    const untouched = await first.db.select().from(payments).where(isNull(payments.lastCheckedAt));
    expect(untouched.map((p) => p.status).sort()).toEqual(['completed', 'completed', 'refund_pending', 'refund_pending', 'refund_pending']);

    // Everything was just looked at: a second pass right away asks the gateway nothing.
    expect(await a.reconciler.runOnce()).toBe(0);
    expect(ledger.statusCalls).toHaveLength(450);
  });

  it('two reconcilers (two processes) share a pass: each payment checked exactly once, never by both at the same moment', async () => {
    const ids = await insertOpenPayments(first, 450, 'shared');
    const jitter = () => 1 + Math.floor(Math.random() * 3);
    const a = processOn(first, ledger, jitter);
    const b = processOn(second, ledger, jitter);
    await Promise.all([a.reconciler.runOnce(), b.reconciler.runOnce()]);
    expect(ledger.statusCalls.slice().sort()).toEqual(ids.slice().sort());
    expect(ledger.overlaps).toBe(0);
    // Both took part (rows the other one held were skipped, not waited for).
    expect(a.gateway.calls).toBeGreaterThan(0);
    expect(b.gateway.calls).toBeGreaterThan(0);
    expect(a.gateway.maxConcurrent).toBeLessThanOrEqual(4);
    expect(b.gateway.maxConcurrent).toBeLessThanOrEqual(4);
  });

  it('a refund that keeps failing is retried by its job, waits doubling, recorded for staff, and keeps no one waiting', async () => {
    const [stuck] = await insertOpenPayments(first, 1, 'stuck', { status: 'refund_pending', paidAmountSen: 5000 });
    const others = await insertOpenPayments(first, 450, 'waiting');
    ledger.refundsFail.add(stuck);
    const a = processOn(first, ledger);

    // The pass checks the open payments and queues the owed refund, which has no job yet (as after a crash).
    await a.reconciler.runOnce();
    expect(new Set(ledger.statusCalls)).toEqual(new Set(others));
    expect(ledger.refundCalls).toEqual([]);
    await a.jobs.runDue('refund');
    expect(ledger.refundCalls).toEqual([{ sessionId: stuck, amountSen: 5000 }]);
    expect(await row(first, stuck)).toMatchObject({ status: 'refund_pending', refundAttempts: 1, refundLastError: 'refund refused by the acquirer' });
    expect(await secondsToNextRefund(first, 'pay_stuck0')).toBeGreaterThan(55);
    expect(await secondsToNextRefund(first, 'pay_stuck0')).toBeLessThanOrEqual(120);
    // What the staff alerts view reads as a failing refund.
    const failing = await queryRows<{ id: string }>(first, sql`SELECT id FROM payments WHERE status = 'refund_pending' AND refund_attempts > 0`);
    expect(failing).toEqual([{ id: 'pay_stuck0' }]);

    // Not due yet: the queue and a pass leave it alone (the pass queues nothing more while a job waits).
    await a.jobs.runDue('refund');
    await a.reconciler.runOnce();
    expect(ledger.refundCalls).toHaveLength(1);

    await makeRefundDue(first, 'pay_stuck0');
    await a.jobs.runDue('refund');
    expect(ledger.refundCalls).toHaveLength(2);
    expect((await row(first, stuck)).refundAttempts).toBe(2);
    expect(await secondsToNextRefund(first, 'pay_stuck0')).toBeGreaterThan(115);
    expect(await secondsToNextRefund(first, 'pay_stuck0')).toBeLessThanOrEqual(240);

    // Its retries spent, the job fails: staff see it, and a pass does not ask again for 6 hours.
    await first.exec(`UPDATE pgboss.job SET retry_count = retry_limit - 1 WHERE name = 'refund' AND singleton_key = 'pay_stuck0' AND state = 'retry'`);
    await makeRefundDue(first, 'pay_stuck0');
    await a.jobs.runDue('refund');
    expect(await nextRefundTry(first, 'pay_stuck0')).toBeNull();
    expect((await failedJobs(first)).find((q) => q.queue === 'refund')).toMatchObject({ failed: 1, lastError: 'refund refused by the acquirer' });
    await a.reconciler.runOnce();
    expect(await nextRefundTry(first, 'pay_stuck0')).toBeNull();

    // Six hours later the pass queues it again, and the acquirer accepts it at last: refunded, of what was paid.
    await first.exec(`UPDATE pgboss.job SET completed_on = completed_on - interval '7 hours' WHERE name = 'refund' AND state = 'failed'`);
    ledger.refundsFail.delete(stuck);
    await a.reconciler.runOnce();
    await a.jobs.runDue('refund');
    expect(ledger.refundCalls.at(-1)).toEqual({ sessionId: stuck, amountSen: 5000 });
    expect(await row(first, stuck)).toMatchObject({ status: 'refunded', gatewayRefundId: `rf_${stuck}` });
  });

  it('a refund is issued once while the reconcilers, polls and refund workers of two processes race for it', async () => {
    const [due] = await insertOpenPayments(first, 1, 'race', { status: 'refund_pending' });
    const slow = () => 30;
    const a = processOn(first, ledger, slow);
    const b = processOn(second, ledger, slow);
    await Promise.all([
      a.reconciler.runOnce(),
      b.reconciler.runOnce(),
      ...Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).service.status('pay_race0', 'id', undefined)),
      a.service.refunds.request('pay_race0'),
      b.service.refunds.request('pay_race0'),
    ]);
    await Promise.all([a.jobs.runDue('refund'), b.jobs.runDue('refund'), a.jobs.runDue('refund'), b.jobs.runDue('refund')]);
    expect(ledger.refundCalls).toEqual([{ sessionId: due, amountSen: 7500 }]);
    expect(await row(first, due)).toMatchObject({ status: 'refunded', refundAttempts: 0 });
    // Later passes, polls and requests leave a refunded payment alone.
    await Promise.all([a.reconciler.runOnce(), b.service.status('pay_race0', 'id', undefined), a.service.refunds.request('pay_race0')]);
    await Promise.all([a.jobs.runDue('refund'), b.jobs.runDue('refund')]);
    expect(ledger.refundCalls).toHaveLength(1);
  });

  it('a refund whose answer was lost is not issued again: the gateway says it is refunded', async () => {
    const [lost] = await insertOpenPayments(first, 1, 'lost', { status: 'refund_pending' });
    ledger.refundAnswersLost.add(lost);
    const a = processOn(first, ledger);
    await a.reconciler.runOnce();
    await a.jobs.runDue('refund');
    expect(ledger.refundCalls).toHaveLength(1);
    expect(await row(first, lost)).toMatchObject({ status: 'refunded', refundAttempts: 0 });
  });

  it('50 polls of one pending payment on two processes make one gateway call; the next only once it is a few seconds old', async () => {
    const [polled] = await insertOpenPayments(first, 1, 'polled');
    const a = processOn(first, ledger, () => 20);
    const b = processOn(second, ledger, () => 20);
    const poll = () => Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).service.status('pay_polled0', 'id', undefined)));

    const answers = await poll();
    expect(answers.every((r) => r.result.payment.status === 'pending')).toBe(true);
    expect(ledger.statusCallsFor(polled)).toBe(1);
    await poll();
    expect(ledger.statusCallsFor(polled)).toBe(1);

    // Six seconds later (the last check moved back rather than waiting): one more call for all 50.
    await first.db.execute(sql`UPDATE payments SET last_checked_at = now() - interval '6 seconds' WHERE gateway_session_id = ${polled}`);
    ledger.states.set(polled, 'failed');
    const after = await poll();
    expect(ledger.statusCallsFor(polled)).toBe(2);
    expect(ledger.overlaps).toBe(0);
    // The poll that asked answers with the news; the others answered from the database meanwhile.
    expect(after.filter((r) => r.result.payment.status === 'failed').length).toBeGreaterThanOrEqual(1);
    expect((await row(first, polled)).status).toBe('failed');
    // Finished: polls answer from the database and never ask again.
    await first.db.execute(sql`UPDATE payments SET last_checked_at = now() - interval '1 hour' WHERE gateway_session_id = ${polled}`);
    await poll();
    expect(ledger.statusCallsFor(polled)).toBe(2);
    expect(await first.db.select().from(payments).where(inArray(payments.status, ['pending']))).toHaveLength(0);
  });
});
