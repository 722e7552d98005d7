import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bookingReferenceParamSchema,
  envelope,
  ManageMessage,
  staffBookingListSchema,
  staffBookingSchema,
  staffCancelBodySchema,
  staffMoveBodySchema,
  unconfirmedVisitsQuerySchema,
  unconfirmedVisitsSchema,
} from 'shared-api/contract';
import { ok } from '../base/errors';
import { bearerSecurity, errorResponses } from '../base/routes';

const tags = ['staff'];
/** What a move or a cancel answers: the booking as it is after the change. */
const changeAnswer = { 200: envelope(staffBookingSchema), ...errorResponses(401, 404, 409) };
/** Who changes a booking, as the history and the audit trail record it: the staff member's email, account and address. */
const changedBy = (request: FastifyRequest) => [request.staff!.email, { userId: request.staff!.id, ip: request.ip }] as const;

/** Paid bookings for staff: the list (CSV export), one booking with its history, and cancel with or without refund. */
export const staffBookingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff/bookings',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'listStaffBookings',
        summary: 'Every paid booking (cancelled ones too) with its state and refund, newest visit first',
        security: bearerSecurity,
        response: { 200: envelope(staffBookingListSchema), ...errorResponses(401) },
      },
    },
    async () => {
      const bookings = await app.bookings.staffList();
      return ok({ bookings }, `${bookings.length} booking(s)`);
    },
  );

  app.get(
    '/staff/bookings/:reference',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'getStaffBooking',
        summary: 'One booking by its payment reference, with its history (oldest first)',
        security: bearerSecurity,
        params: bookingReferenceParamSchema,
        response: { 200: envelope(staffBookingSchema), ...errorResponses(401, 404) },
      },
    },
    async (request) => ok(await app.bookings.staffGet(request.params.reference), 'Booking'),
  );

  app.get(
    '/staff/visits/unconfirmed',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'listUnconfirmedVisits',
        summary:
          "A day's visits (GMT+8) booked and not confirmed by the parent (\"Confirm I'm coming\" on the WhatsApp reminder), by time: each booking at each time its children sit, so the office can call",
        security: bearerSecurity,
        querystring: unconfirmedVisitsQuerySchema,
        response: { 200: envelope(unconfirmedVisitsSchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const visits = await app.bookings.staffUnconfirmed(request.query.day);
      return ok({ day: request.query.day, visits }, `${visits.length} visit(s) not confirmed`);
    },
  );

  app.post(
    '/staff/bookings/:reference/move',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'moveStaffBooking',
        summary: 'Move a booking (or one child of several, `child`) to another free slot before its visit ends (no cut-off for staff; the lead time applies to the new slot)',
        security: bearerSecurity,
        params: bookingReferenceParamSchema,
        body: staffMoveBodySchema,
        response: changeAnswer,
      },
    },
    async (request) =>
      ok(
        await app.bookings.staffMove(request.params.reference, request.body.slotId, ...changedBy(request), request.body.child),
        request.body.child === undefined ? ManageMessage.staffMoved : ManageMessage.staffChildMoved,
      ),
  );

  app.post(
    '/staff/bookings/:reference/cancel',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'cancelStaffBooking',
        summary:
          'Cancel a booking before its visit ends, refunding all that was paid or nothing (recorded with the staff member); `child`: one child of a booking of several, refunding that child\'s share or nothing',
        security: bearerSecurity,
        params: bookingReferenceParamSchema,
        body: staffCancelBodySchema,
        response: changeAnswer,
      },
    },
    async (request) => ok(await app.bookings.staffCancel(request.params.reference, request.body.refund, ...changedBy(request), request.body.child), ManageMessage.staffCancelled),
  );
};
