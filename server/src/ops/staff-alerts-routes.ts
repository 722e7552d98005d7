import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, inMY, STAFF_ALERTS_LIMIT, staffAlertsSchema, type FailingRefund } from 'shared-api/contract';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../base/db/connection';
import { ok } from '../base/errors';
import { LAST_ERROR_CHARS, stuckMail } from './stuck-mail';
import { payments } from '../payments';
import { bearerSecurity, errorResponses } from '../base/routes';
import { JOB_SCHEMA } from '../base/jobs/engine';
import { failedJobs } from '../base/jobs/stats';

/** Refunds the gateway has refused at least once and that are still owed, oldest first, with their job's next try. */
async function failingRefunds(db: Db, limit: number): Promise<{ total: number; items: FailingRefund[] }> {
  const rows = await db
    .select({
      paymentId: payments.id,
      reference: payments.reference,
      visitorName: payments.visitorName,
      amountSen: sql<number>`coalesce(${payments.refundAmountSen}, ${payments.paidAmountSen}, ${payments.amountSen})`,
      refundAttempts: payments.refundAttempts,
      lastError: sql<string | null>`left(${payments.refundLastError}, ${LAST_ERROR_CHARS})`,
      nextRefundAt: sql<Date | null>`(SELECT min(j.start_after) FROM ${sql.raw(JOB_SCHEMA)}.job j
        WHERE j.name = 'refund' AND j.singleton_key = payments.id AND j.state IN ('created', 'retry'))`,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(payments)
    .where(and(eq(payments.status, 'refund_pending'), gt(payments.refundAttempts, 0)))
    .orderBy(asc(payments.createdAt), asc(payments.id))
    .limit(limit);
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map(({ total: _total, nextRefundAt, ...item }) => ({ ...item, nextRefundAt: nextRefundAt && inMY(new Date(nextRefundAt)).format() })),
  };
}

/** What needs a person: mail unsent for over an hour, refunds that keep failing (staff only: it names visitors), and background jobs that failed. */
export const staffAlertRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff/alerts',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['staff'],
        operationId: 'getStaffAlerts',
        summary: 'Mail unsent for over an hour and refunds that keep failing, oldest first; queues with jobs that spent their retries in the last 7 days',
        security: bearerSecurity,
        response: { 200: envelope(staffAlertsSchema), ...errorResponses(401) },
      },
    },
    async (_request, reply) => {
      const [mail, refunds, failed] = await Promise.all([stuckMail(app.db, STAFF_ALERTS_LIMIT), failingRefunds(app.db, STAFF_ALERTS_LIMIT), failedJobs(app.database)]);
      reply.header('cache-control', 'no-store');
      const jobs = failed.map((q) => ({ ...q, lastFailedAt: inMY(q.lastFailedAt).format() }));
      return ok({ stuckMail: mail, failingRefunds: refunds, failedJobs: jobs }, `${mail.total} stuck mail(s), ${refunds.total} failing refund(s), ${jobs.length} queue(s) with failed jobs`);
    },
  );
};
