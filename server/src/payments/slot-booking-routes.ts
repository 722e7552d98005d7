import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BookingMessage,
  ErrorCode,
  bookSlotBodySchema,
  envelope,
  slotIdParamSchema,
  staffSlotSchema,
} from 'shared-api/contract';
import { recordAudit, auditBy } from '../audit';
import { assertCurrentNotice, recordConsent } from '../bookings';
import { currentNoticeVersion } from 'shared-api/privacy';
import { slotTimes, toStaffSlot } from '../slots';
import { findSlot } from '../slots';
import { IdMismatchMessage } from '../slots';
import { Checkout, refuse } from '../checkout';
import { AppError, ok } from '../base/errors';
import { findCompletedPaymentForSlot } from './payment-confirmation';
import { errorResponses, optionalBearer } from '../base/routes';

export const PaymentNotCompletedMessage =
  'This booking cannot be confirmed yet: no completed payment matching these details was found for this slot.';

const slotResult = envelope(z.object({ slot: staffSlotSchema }));

/** Booking a slot: staff directly, anyone else by confirming a completed payment for it. */
export const slotBookingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/slot/:id',
    {
      schema: {
        tags: ['slots (public)'],
        operationId: 'bookSlot',
        security: optionalBearer,
        summary: 'Book a slot: staff token books directly; anonymous callers confirm a completed payment',
        params: slotIdParamSchema,
        body: bookSlotBodySchema,
        response: { 200: slotResult, ...errorResponses(401, 402, 404, 409) },
      },
    },
    async (request) => {
      const slotId = request.params.id;
      const { id, paymentId, consent, ...visitor } = request.body;
      if (id !== undefined && id !== slotId) throw new AppError(400, ErrorCode.VALIDATION_ERROR, IdMismatchMessage);
      const staff = await app.optionalStaff(request);
      const checkout = await Checkout.for(app.db);
      if (request.headers.authorization && !staff) throw new AppError(401, ErrorCode.UNAUTHORIZED, 'Authentication required. Please log in again.');

      if (staff) {
        // The parent's consent as staff took it (by phone, at the desk): the current notice, in English unless said otherwise.
        const given = consent ?? { noticeVersion: currentNoticeVersion(), language: 'en' as const };
        assertCurrentNotice(given);
        const result = await app.db.transaction(async (tx) => {
          const { id: consentId } = await recordConsent(tx, given, 'staff');
          const booked = await checkout.book(tx, { slotId, visitor, consentId });
          // refuse() throws: a refused booking rolls its consent back with it.
          if (!booked.ok) return refuse(booked);
          await recordAudit(tx, {
            ...auditBy(staff, request.ip),
            action: 'booking_direct',
            target: booked.slot.bookingReference,
            detail: { slotId, ...slotTimes(booked.slot), school: booked.slot.selectedSchool, consentId },
          });
          return booked;
        });
        request.log.info({ slotId, by: staff.id }, 'slot booked by staff');
        return ok({ slot: toStaffSlot(result.slot) }, 'Slot booked successfully');
      }

      const payment = await findCompletedPaymentForSlot(app.db, { slotId, paymentId, visitor });
      if (!payment) throw new AppError(402, ErrorCode.PAYMENT_NOT_COMPLETED, PaymentNotCompletedMessage);
      const result = await checkout.book(app.db, {
        slotId,
        visitor: payment.visitor,
        holdToken: payment.holdToken,
        bookingReference: payment.reference,
        amountSen: payment.amountSen,
        consentId: payment.consentId,
      });
      if (result.ok) return ok({ slot: toStaffSlot(result.slot) }, BookingMessage.paymentSuccess);
      // Repeating a successful confirm: the slot already carries this payment's reference.
      const current = await findSlot(app.db, slotId);
      if (current && current.status === 'booked' && current.bookingReference === payment.reference)
        return ok({ slot: toStaffSlot(current) }, BookingMessage.paymentSuccess);
      return refuse(result);
    },
  );
};
