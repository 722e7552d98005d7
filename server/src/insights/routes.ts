import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  attendanceSchema,
  checkoutFunnelSchema,
  envelope,
  fillRateSchema,
  insightsQuerySchema,
  moneySchema,
  popularTimesSchema,
  waitlistInsightsSchema,
} from 'shared-api/contract';
import { ok } from '../base/errors';
import { bearerSecurity, errorResponses } from '../base/routes';
import type { DbOrTx } from '../base/db/connection';
import { attendance, checkoutFunnel, fillRate, money, popularTimes, waitlistInsights, type Period } from './service';

/** One read-only GET per chart of the Insights page, each answering one figure for a period and school. */
const CHARTS: { path: string; operationId: string; summary: string; schema: z.ZodType; compute: (db: DbOrTx, p: Period) => Promise<unknown> }[] = [
  { path: 'fill-rate', operationId: 'insightsFillRate', summary: 'Seats booked of seats offered per GMT+8 week, per school', schema: fillRateSchema, compute: fillRate },
  { path: 'popular-times', operationId: 'insightsPopularTimes', summary: 'Seats booked per weekday and GMT+8 start time', schema: popularTimesSchema, compute: popularTimes },
  { path: 'waitlist', operationId: 'insightsWaitlist', summary: 'Waitlist entries per week, offers and their outcomes, median minutes until a freed seat is booked again', schema: waitlistInsightsSchema, compute: waitlistInsights },
  { path: 'checkout', operationId: 'insightsCheckoutFunnel', summary: 'Holds taken, payments started, paid, failed, cancelled, expired; hold-to-paid conversion; per payment method', schema: checkoutFunnelSchema, compute: checkoutFunnel },
  { path: 'attendance', operationId: 'insightsAttendance', summary: 'Bookings cancelled by the parent or by staff, and moved, per school', schema: attendanceSchema, compute: attendance },
  { path: 'money', operationId: 'insightsMoney', summary: 'Fees paid, refunded and net per school (integer sen)', schema: moneySchema, compute: money },
];

export const insightsRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const chart of CHARTS) {
    app.get(
      `/staff/insights/${chart.path}`,
      {
        onRequest: app.requireStaff,
        schema: {
          tags: ['staff'],
          operationId: chart.operationId,
          summary: `${chart.summary}; from and to are GMT+8 days (inclusive, at most a year apart), school optional`,
          security: bearerSecurity,
          querystring: insightsQuerySchema,
          response: { 200: envelope(chart.schema), ...errorResponses(401, 403) },
        },
      },
      async (request) => ok(await chart.compute(app.db, request.query), 'OK'),
    );
  }
};
