import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, inMY, STAFF_ALERTS_LIMIT, staffAlertsSchema, type FailingRefund } from 'shared-api/contract';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/connection';
import { ok } from '../errors';
import { LAST_ERROR_CHARS, stuckMail } from '../mail/stuck';
import { payments } from '../payments/tables';
import { bearerSecurity, errorResponses } from './common';

/** Refunds the gateway has refused at least once and that are still owed, oldest first (the reconciler retries them). */
async function failingRefunds(db: Db, limit: number): Promise<{ total: number; items: FailingRefund[] }> {
  const rows = await db
    .select({
      paymentId: payments.id,
      reference: payments.reference,
      visitorName: payments.visitorName,
      amountSen: sql<number>`coalesce(${payments.refundAmountSen}, ${payments.paidAmountSen}, ${payments.amountSen})`,
      refundAttempts: payments.refundAttempts,
      lastError: sql<string | null>`left(${payments.refundLastError}, ${LAST_ERROR_CHARS})`,
      nextRefundAt: payments.nextRefundAt,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(payments)
    .where(and(eq(payments.status, 'refund_pending'), gt(payments.refundAttempts, 0)))
    .orderBy(asc(payments.createdAt), asc(payments.id))
    .limit(limit);
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map(({ total: _total, nextRefundAt, ...item }) => ({ ...item, nextRefundAt: nextRefundAt && inMY(nextRefundAt).format() })),
  };
}

/** What needs a person: mail unsent for over an hour and refunds that keep failing (staff only: it names visitors). */
export const staffAlertRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff/alerts',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Mail unsent for over an hour and refunds that keep failing, oldest first',
        security: bearerSecurity,
        response: { 200: envelope(staffAlertsSchema), ...errorResponses },
      },
    },
    async (_request, reply) => {
      const [mail, refunds] = await Promise.all([stuckMail(app.db, STAFF_ALERTS_LIMIT), failingRefunds(app.db, STAFF_ALERTS_LIMIT)]);
      reply.header('cache-control', 'no-store');
      return ok({ stuckMail: mail, failingRefunds: refunds }, `${mail.total} stuck mail(s), ${refunds.total} failing refund(s)`);
    },
  );
};
