import fp from 'fastify-plugin';
import { and, count, eq, gt, inArray, isNotNull, min, sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MailQueue } from '../mail';
import type { Db, DatabaseHandle } from '../base/db/connection';
import { queueStats } from '../base/jobs/stats';
import { slots } from '../slots';
import { mailBacklog } from './stuck-mail';
import { OPEN_STATUSES, PAYMENT_STATUSES } from '../payments';
import { mailOutbox } from '../mail';
import { paymentChildren, payments } from '../payments';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry (one per app, so tests building many apps never share counters). */
    metrics: Registry;
  }
}

/** Seconds from a timestamp to now on the database's clock, 0 when there is none. */
const secondsSince = (column: unknown) => sql<number>`coalesce(extract(epoch from now() - ${column}), 0)::float8`;

/** The business gauges, each read from the database when Prometheus scrapes (a few aggregate queries). */
function businessGauges(registry: Registry, db: Db, database: DatabaseHandle): void {
  const gauge = (name: string, help: string, collect: (g: Gauge) => Promise<void>, labelNames: string[] = []) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        await collect(this);
      },
    });
  gauge('booking_slots_booked', 'Slots booked (not deleted)', async (g) => {
    const [row] = await db.select({ n: count() }).from(slots).where(and(eq(slots.status, 'booked'), sql`${slots.deletedAt} IS NULL`));
    g.set(row?.n ?? 0);
  });
  gauge('booking_holds_live', 'Slots held for a visitor who is paying', async (g) => {
    const [row] = await db
      .select({ n: count() })
      .from(slots)
      .where(and(eq(slots.status, 'available'), isNotNull(slots.holdTokenHash), gt(slots.holdExpiresAt, sql`now()`)));
    g.set(row?.n ?? 0);
  });
  gauge(
    'booking_payments',
    'Payments by status',
    async (g) => {
      const rows = await db.select({ status: payments.status, n: count() }).from(payments).groupBy(payments.status);
      for (const status of PAYMENT_STATUSES) g.set({ status }, rows.find((r) => r.status === status)?.n ?? 0);
    },
    ['status'],
  );
  gauge('booking_refund_failures', "Refunds due whose gateway call failed at least once (a booking's or one child's share)", async (g) => {
    const [[whole], [children]] = await Promise.all([
      db.select({ n: count() }).from(payments).where(and(eq(payments.status, 'refund_pending'), gt(payments.refundAttempts, 0))),
      db
        .select({ n: count() })
        .from(paymentChildren)
        .where(and(inArray(paymentChildren.refundState, ['pending', 'requested']), gt(paymentChildren.refundAttempts, 0))),
    ]);
    g.set((whole?.n ?? 0) + (children?.n ?? 0));
  });
  gauge('booking_reconciliation_lag_seconds', 'Since the least recently checked open payment was last asked about (or created)', async (g) => {
    const [row] = await db
      .select({ lag: secondsSince(min(sql`coalesce(${payments.lastCheckedAt}, ${payments.createdAt})`)) })
      .from(payments)
      .where(inArray(payments.status, [...OPEN_STATUSES]));
    g.set(row?.lag ?? 0);
  });
  const unsent = inArray(mailOutbox.status, ['pending', 'sending']);
  gauge('booking_outbox_depth', 'Outbox messages not yet sent (pending or being sent)', async (g) => {
    const [row] = await db.select({ n: count() }).from(mailOutbox).where(unsent);
    g.set(row?.n ?? 0);
  });
  gauge('booking_outbox_oldest_seconds', 'Age of the oldest unsent outbox message', async (g) => {
    const [row] = await db.select({ oldest: secondsSince(min(mailOutbox.createdAt)) }).from(mailOutbox).where(unsent);
    g.set(row?.oldest ?? 0);
  });
  gauge('booking_mail_stuck', 'Messages unsent for over an hour, or given up (as /health counts them)', async (g) => {
    g.set((await mailBacklog(db)).stuck);
  });
  // The retention policy's work (issue 28), summed from its audit entries, so every replica reports the same totals
  // whichever one ran the nightly job: each kind of record anonymised so far (payments, slots, mail bodies, ...).
  gauge(
    'booking_retention_anonymised',
    'Records anonymised by the retention policy so far, by kind (from the retention_applied audit entries)',
    async (g) => {
      const { rows } = (await db.execute(sql`
        SELECT e.key AS kind, sum((e.value #>> '{}')::bigint)::float8 AS n
        FROM audit_log a, jsonb_each(a.detail) AS e
        WHERE a.action = 'retention_applied' AND jsonb_typeof(e.value) = 'number'
        GROUP BY e.key`)) as unknown as { rows: { kind: string; n: number }[] };
      g.reset();
      for (const kind of ['payments', 'slots', 'mailBodies']) g.set({ kind }, 0);
      for (const row of rows) g.set({ kind: row.kind }, Number(row.n));
    },
    ['kind'],
  );
  gauge('booking_retention_last_anonymised_seconds', 'Since the retention policy last anonymised anything (0: never)', async (g) => {
    const { rows } = (await db.execute(sql`SELECT coalesce(extract(epoch from now() - max(at)), 0)::float8 AS s FROM audit_log WHERE action = 'retention_applied'`)) as unknown as { rows: { s: number }[] };
    g.set(Number(rows[0]?.s ?? 0));
  });
  // Each pg-boss queue (jobs/stats.ts): one query per scrape feeds both gauges.
  let stats: ReturnType<typeof queueStats> | null = null;
  const readStats = () => (stats ??= queueStats(database).finally(() => setImmediate(() => (stats = null))));
  gauge(
    'booking_jobs',
    'Jobs per queue by state: waiting (queued or waiting for a retry), active, failed (retries spent, last 7 days)',
    async (g) => {
      for (const q of await readStats()) for (const state of ['waiting', 'active', 'failed'] as const) g.set({ queue: q.queue, state }, q[state]);
    },
    ['queue', 'state'],
  );
  gauge(
    'booking_jobs_oldest_waiting_seconds',
    'Age of the oldest waiting job of each queue (0: none waiting)',
    async (g) => {
      for (const q of await readStats()) g.set({ queue: q.queue }, q.oldestWaitingSeconds);
    },
    ['queue'],
  );
}

/** What this process's mail queue counted (a counter per process; Prometheus adds up the replicas). */
function mailCounters(registry: Registry, queue: MailQueue): void {
  new Counter({
    name: 'booking_mail_maybe_delivered_retries_total',
    help: 'Retries of messages the mail server may have stored (connection lost after the whole message was sent, before its reply), each after the longer pause',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(queue.maybeDeliveredRetries);
    },
  });
}

/**
 * Request latency per route pattern (never the raw URL: it holds payment ids) and the business gauges, in a registry
 * of this app's own; main.ts serves it on METRICS_PORT, away from the public port.
 */
export const metricsPlugin = fp(
  async (app) => {
    const registry = new Registry();
    const latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by method, route pattern and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    businessGauges(registry, app.db, app.database);
    mailCounters(registry, app.mailQueue);
    app.decorate('metrics', registry);
    app.addHook('onResponse', async (request, reply) => {
      latency.observe(
        { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_class: `${Math.floor(reply.statusCode / 100)}xx` },
        reply.elapsedTime / 1000,
      );
    });
  },
  { name: 'metrics', dependencies: ['database', 'payment-services'] },
);
