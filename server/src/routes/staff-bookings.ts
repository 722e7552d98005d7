import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bookingReferenceParamSchema,
  rescheduleBodySchema,
  envelope,
  ManageMessage,
  staffBookingListSchema,
  staffBookingSchema,
  staffCancelBodySchema,
} from 'shared-api/contract';
import { ok } from '../errors';
import { bearerSecurity, errorResponses } from './common';

const tags = ['staff'];

/** Paid bookings for staff: the list (CSV export), one booking with its history, and cancel with or without refund. */
export const staffBookingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/staff/bookings',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        summary: 'Every paid booking (cancelled ones too) with its state and refund, newest visit first',
        security: bearerSecurity,
        response: { 200: envelope(staffBookingListSchema), ...errorResponses },
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
        summary: 'One booking by its payment reference, with its history (oldest first)',
        security: bearerSecurity,
        params: bookingReferenceParamSchema,
        response: { 200: envelope(staffBookingSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.bookings.staffGet(request.params.reference), 'Booking'),
  );

  app.post(
    '/staff/bookings/:reference/move',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        summary: 'Move a booking to another free slot before its visit ends (no cut-off for staff; the lead time applies to the new slot)',
        security: bearerSecurity,
        params: bookingReferenceParamSchema,
        body: rescheduleBodySchema,
        response: { 200: envelope(staffBookingSchema), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await app.bookings.staffMove(request.params.reference, request.body.slotId, request.staff!.email, { userId: request.staff!.id, ip: request.ip }),
        ManageMessage.staffMoved,
      ),
  );

  app.post(
    '/staff/bookings/:reference/cancel',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        summary: 'Cancel a booking before its visit ends, refunding all that was paid or nothing (recorded with the staff member)',
        security: bearerSecurity,
        params: bookingReferenceParamSchema,
        body: staffCancelBodySchema,
        response: { 200: envelope(staffBookingSchema), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await app.bookings.staffCancel(request.params.reference, request.body.refund, request.staff!.email, { userId: request.staff!.id, ip: request.ip }),
        ManageMessage.staffCancelled,
      ),
  );
};
