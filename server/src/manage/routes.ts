import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cancelBodySchema,
  envelope,
  ManageMessage,
  manageLinkBodySchema,
  manageLinkSchema,
  manageTokenParamSchema,
  manageViewSchema,
  rescheduleBodySchema,
  type ManageView,
} from 'shared-api/contract';
import { ok } from '../base/errors';
import { paymentKeyHeaders } from '../payments';
import { errorResponses, publicRoute } from '../base/routes';

const tags = ['manage booking'];
const viewAnswer = envelope(manageViewSchema);
/** What a move or a cancel through the link answers: the booking as it is after the change, or why nothing changed. */
const changeAnswer = { 200: viewAnswer, ...errorResponses(404, 409, 410, 429) };
const viewMessage = (view: ManageView, fallback: string) => (view.state === 'cancelled' ? ManageMessage.cancelled : fallback);

/**
 * The parent's manage link: the token in the address is the only key (unknown ones are rate-limited per address and
 * answered without any booking data). The reschedule timetable is the public slot list.
 */
export const manageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/booking/manage-link',
    {
      schema: {
        tags,
        operationId: 'createManageLink',
        security: publicRoute,
        summary: 'A manage link for the browser that paid (payment id with the payment\'s key, else 403; completed, booked and not over; 20 per booking)',
        headers: paymentKeyHeaders,
        body: manageLinkBodySchema,
        response: { 200: envelope(manageLinkSchema), ...errorResponses(403, 404, 409, 429) },
      },
    },
    async (request) => ok(await app.bookings.browserLink(request.body.paymentId, request.headers['x-payment-key'], request.ip), 'Manage link'),
  );

  app.get(
    '/api/booking/manage/:token',
    {
      schema: {
        tags,
        operationId: 'getManagedBooking',
        security: publicRoute,
        summary: 'The booking a manage link opens (404 unknown, 410 visit over, 429 after too many unknown links)',
        params: manageTokenParamSchema,
        response: { 200: viewAnswer, ...errorResponses(404, 410, 429) },
      },
    },
    async (request) => {
      const view = await app.bookings.view(request.params.token, request.ip);
      return ok(view, viewMessage(view, 'Booking'));
    },
  );

  app.post(
    '/api/booking/manage/:token/reschedule',
    {
      schema: {
        tags,
        operationId: 'rescheduleManagedBooking',
        security: publicRoute,
        summary: 'Move the booking to another free slot before the cut-off (409 when the slot was just taken: nothing changes)',
        params: manageTokenParamSchema,
        body: rescheduleBodySchema,
        response: changeAnswer,
      },
    },
    async (request) => ok(await app.bookings.reschedule(request.params.token, request.body.slotId, request.ip), ManageMessage.rescheduled),
  );

  app.post(
    '/api/booking/manage/:token/cancel',
    {
      schema: {
        tags,
        operationId: 'cancelManagedBooking',
        security: publicRoute,
        summary:
          'Cancel before the cut-off with the refund the parent was shown (409 QUOTE_CHANGED when it differs now); `child`: one child of a booking of several, the others staying booked (that child\'s share refunded by the same rule)',
        params: manageTokenParamSchema,
        body: cancelBodySchema,
        response: changeAnswer,
      },
    },
    async (request) => ok(await app.bookings.cancel(request.params.token, request.body.expectedRefundSen, request.ip, request.body.child), ManageMessage.cancelledNow),
  );

  app.post(
    '/api/booking/manage/:token/whatsapp-off',
    {
      schema: {
        tags,
        operationId: 'stopManagedBookingWhatsApp',
        security: publicRoute,
        summary: 'No more WhatsApp messages about this booking (issue 38): those not yet sent never go; email goes on (404 unknown, 410 visit over)',
        params: manageTokenParamSchema,
        response: { 200: viewAnswer, ...errorResponses(404, 410, 429) },
      },
    },
    async (request) => ok(await app.bookings.stopWhatsApp(request.params.token, request.ip), ManageMessage.whatsappOff),
  );
};

