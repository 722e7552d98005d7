import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  attendanceAnswerSchema,
  attendanceBodySchema,
  attendanceListSchema,
  attendanceRangeQuerySchema,
  attendanceUndoQuerySchema,
  envelope,
  visitDayQuerySchema,
  visitDaySchema,
  VisitDayMessage,
  visitReferenceParamSchema,
} from 'shared-api/contract';
import { ok } from '../base/errors';
import { bearerSecurity, errorResponses } from '../base/routes';
import type { Marker } from './service';

const tags = ['staff'];
const markerOf = (request: FastifyRequest): Marker => ({ email: request.staff!.email, userId: request.staff!.id, ip: request.ip });

/** The staff's day (issue 40): the day's visits, who came and who did not, and the marks for the Booked list and the CSV. */
export const visitDayRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff/visits/day',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'getVisitDay',
        summary:
          "A day's visits (GMT+8) in start order: each booking at each time its children sit, with the parent, each child's school and documents (how many are in, which are missing), and the visit's Arrived / No-show mark",
        security: bearerSecurity,
        querystring: visitDayQuerySchema,
        response: { 200: envelope(visitDaySchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const day = await app.visitDay.day(request.query.day);
      return ok(day, `${day.visits.length} visit(s)`);
    },
  );

  app.get(
    '/staff/visits/attendance',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'listVisitAttendance',
        summary: 'The Arrived / No-show marks of the visits starting between two GMT+8 days (inclusive, at most a year), for the Booked list and the CSV export',
        security: bearerSecurity,
        querystring: attendanceRangeQuerySchema,
        response: { 200: envelope(attendanceListSchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const records = await app.visitDay.range(request.query.from, request.query.to);
      return ok({ records }, `${records.length} mark(s)`);
    },
  );

  app.post(
    '/staff/visits/:reference/attendance',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'markVisitAttendance',
        summary:
          'Mark the visit starting at `start` Arrived (from its day, GMT+8) or No-show (after its start; before: 409); audited. The same mark again answers the same; another mark: 409 (undo first); a cancelled booking: 409',
        security: bearerSecurity,
        params: visitReferenceParamSchema,
        body: attendanceBodySchema,
        response: { 200: envelope(attendanceAnswerSchema), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const { start, state } = request.body;
      const answer = await app.visitDay.mark(request.params.reference, start, state, markerOf(request));
      return ok(answer, state === 'arrived' ? VisitDayMessage.arrived : VisitDayMessage.noShow);
    },
  );

  app.delete(
    '/staff/visits/:reference/attendance',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'undoVisitAttendance',
        summary: "Undo the visit's Arrived / No-show within 5 minutes of the mark (after: 409 too late to undo); audited",
        security: bearerSecurity,
        params: visitReferenceParamSchema,
        querystring: attendanceUndoQuerySchema,
        response: { 200: envelope(attendanceAnswerSchema), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => ok(await app.visitDay.undo(request.params.reference, request.query.start, markerOf(request)), VisitDayMessage.undone),
  );
};
