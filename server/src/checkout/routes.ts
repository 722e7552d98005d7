import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorCode,
  envelope,
  HOLD_MINUTES,
  HOLD_TIME_CAP_MINUTES,
  HOLD_TIME_WINDOW_MINUTES,
  releaseBodySchema,
  reservationSchema,
  reserveBodySchema,
  slotIdParamSchema,
} from 'shared-api/contract';
import { AppError, ok } from '../base/errors';
import { errorResponses, publicRoute } from '../base/routes';
import { holdLimitedAnswer } from './answers';
import { Checkout } from './checkout';
import { HoldInvalidMessage } from './hold-rows';

/** A parent's hold on a slot while they pay: take it (within the network's limits) and end it. */
export const holdRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/slot/:id/reserve',
    {
      schema: {
        tags: ['slots (public)'],
        operationId: 'reserveSlot',
        security: publicRoute,
        summary: `Hold a bookable slot while its visitor pays (${HOLD_MINUTES} minutes, less when the client network has nearly had its ${HOLD_TIME_CAP_MINUTES} minutes on this slot within ${HOLD_TIME_WINDOW_MINUTES / 60} hours: 429 HOLD_TIME_USED; past the network's free holds, 429 HOLD_LIMIT with a proof-of-work challenge)`,
        params: slotIdParamSchema,
        // No body at all means the default hold.
        body: z.preprocess((v) => v ?? {}, reserveBodySchema),
        response: { 200: envelope(reservationSchema), 429: holdLimitedAnswer, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      // The hold's length is the server's (HOLD_MINUTES within the hold time left): a `minutes` sent is accepted and not used.
      const children = request.body.children ?? 1;
      const hold = await (await Checkout.for(app.db)).reserve(request.params.id, request.ip, request.body.proofOfWork, children);
      return ok({ slotId: hold.slotId, token: hold.token, expiresAt: hold.expiresAt.toISOString(), ...(children > 1 && { slotIds: hold.slotIds }) }, 'Slot reserved');
    },
  );

  app.post(
    '/slot/:id/release',
    {
      schema: {
        tags: ['slots (public)'],
        operationId: 'releaseSlot',
        security: publicRoute,
        summary: 'End a hold with its token',
        params: slotIdParamSchema,
        body: releaseBodySchema,
        response: { 200: envelope(z.object({ slotId: z.number().int() })), ...errorResponses(409) },
      },
    },
    async (request) => {
      const released = await (await Checkout.for(app.db)).release(request.params.id, request.body.token);
      if (!released) throw new AppError(409, ErrorCode.HOLD_INVALID, HoldInvalidMessage);
      return ok({ slotId: request.params.id }, 'Slot released');
    },
  );
};
