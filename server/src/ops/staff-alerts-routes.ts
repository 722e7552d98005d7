import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CHARGEBACK_ALERT_DAYS, envelope, inMY, STAFF_ALERTS_LIMIT, staffAlertsSchema, type ChargebackAlert, type FailingRefund } from 'shared-api/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../base/db/connection';
import { ok } from '../base/errors';
import { LAST_ERROR_CHARS, stuckMail } from './stuck-mail';
import { bearerSecurity, errorResponses } from '../base/routes';
import { childRefundKeySql } from '../payments';
import { JOB_SCHEMA } from '../base/jobs/engine';
import { failedJobs } from '../base/jobs/stats';

/**
 * Refunds the gateway has refused at least once and that are still owed, oldest first, with their job's next try: a
 * whole booking's (`refund` queue) and one child's share of a booking of several (`child-refund`, issue 37).
 */
async function failingRefunds(db: Db, limit: number): Promise<{ total: number; items: FailingRefund[] }> {
  type Row = {
    payment_id: string;
    reference: string;
    visitor_name: string;
    amount_sen: number;
    refund_attempts: number;
    last_error: string | null;
    next_refund_at: string | Date | null;
    child_position: number | null;
    child_name: string | null;
    total: number;
  };
  const nextTry = (queue: string, key: SQL) =>
    sql`(SELECT min(j.start_after) FROM ${sql.raw(JOB_SCHEMA)}.job j WHERE j.name = ${queue} AND j.singleton_key = ${key} AND j.state IN ('created', 'retry'))`;
  const result = await db.execute(sql`
    WITH failing AS (
      SELECT p.id AS payment_id, p.reference, p.visitor_name,
             coalesce(p.refund_amount_sen, p.paid_amount_sen, p.amount_sen) AS amount_sen,
             p.refund_attempts, left(p.refund_last_error, ${LAST_ERROR_CHARS}) AS last_error,
             ${nextTry('refund', sql`p.id`)} AS next_refund_at,
             NULL::int AS child_position, NULL::text AS child_name, p.created_at
      FROM payments p WHERE p.status = 'refund_pending' AND p.refund_attempts > 0
      UNION ALL
      SELECT p.id, p.reference, p.visitor_name, c.refund_sen, c.refund_attempts, left(c.refund_last_error, ${LAST_ERROR_CHARS}),
             ${nextTry('child-refund', childRefundKeySql(sql`p.id`, sql`c.position`))},
             c.position, c.child_name, c.cancelled_at
      FROM payment_children c JOIN payments p ON p.id = c.payment_id
      WHERE c.refund_state IN ('pending', 'requested') AND c.refund_attempts > 0
    )
    SELECT *, (count(*) over ())::int AS total FROM failing ORDER BY created_at, payment_id, child_position NULLS FIRST LIMIT ${limit}`);
  const rows = (result as unknown as { rows: Row[] }).rows;
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map((r) => ({
      paymentId: r.payment_id,
      reference: r.reference,
      visitorName: r.visitor_name,
      amountSen: Number(r.amount_sen),
      refundAttempts: Number(r.refund_attempts),
      lastError: r.last_error,
      nextRefundAt: r.next_refund_at && inMY(new Date(r.next_refund_at)).format(),
      ...(r.child_position !== null ? { child: { position: Number(r.child_position), name: r.child_name ?? '' } } : {}),
    })),
  };
}

/** Payments the bank took money back from in the last CHARGEBACK_ALERT_DAYS days, newest first (payments.chargeback_at, migration 0039). */
async function recentChargebacks(db: Db, limit: number): Promise<{ total: number; items: ChargebackAlert[] }> {
  type Row = { payment_id: string; reference: string; visitor_name: string; amount_sen: number; at: string | Date; booking_status: 'booked' | 'cancelled' | null; total: number };
  const result = await db.execute(sql`
    SELECT p.id AS payment_id, p.reference, p.visitor_name, p.chargeback_amount_sen AS amount_sen, p.chargeback_at AS at,
           p.booking_status, (count(*) over ())::int AS total
    FROM payments p
    WHERE p.chargeback_at > now() - make_interval(days => ${CHARGEBACK_ALERT_DAYS}::int)
    ORDER BY p.chargeback_at DESC, p.id LIMIT ${limit}`);
  const rows = (result as unknown as { rows: Row[] }).rows;
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map((r) => ({
      paymentId: r.payment_id,
      reference: r.reference,
      visitorName: r.visitor_name,
      amountSen: Number(r.amount_sen),
      at: inMY(new Date(r.at)).format(),
      bookingStatus: r.booking_status,
    })),
  };
}

/** What needs a person: mail unsent for over an hour, refunds that keep failing, chargebacks (staff only: they name visitors), and background jobs that failed. */
export const staffAlertRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff/alerts',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['staff'],
        operationId: 'getStaffAlerts',
        summary: 'Mail unsent for over an hour and refunds that keep failing, oldest first; queues with jobs that spent their retries in the last 7 days; chargebacks of the last 30 days, newest first',
        security: bearerSecurity,
        response: { 200: envelope(staffAlertsSchema), ...errorResponses(401) },
      },
    },
    async (_request, reply) => {
      const [mail, refunds, failed, chargebacks] = await Promise.all([
        stuckMail(app.db, STAFF_ALERTS_LIMIT),
        failingRefunds(app.db, STAFF_ALERTS_LIMIT),
        failedJobs(app.database),
        recentChargebacks(app.db, STAFF_ALERTS_LIMIT),
      ]);
      reply.header('cache-control', 'no-store');
      const jobs = failed.map((q) => ({ ...q, lastFailedAt: inMY(q.lastFailedAt).format() }));
      return ok(
        { stuckMail: mail, failingRefunds: refunds, failedJobs: jobs, chargebacks },
        `${mail.total} stuck mail(s), ${refunds.total} failing refund(s), ${jobs.length} queue(s) with failed jobs, ${chargebacks.total} chargeback(s)`,
      );
    },
  );
};
