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
  WaitlistErrorCode,
  WaitlistMessage,
} from 'shared-api/contract';
import { refuse, findSlot, HoldInvalidMessage, releaseHold, reserveSlot, SlotNotFoundMessage, visibleRefusal } from '../slots/slot-service';
import { AppError, ok } from '../base/errors';
import { slotClaimed, slotFreed } from '../base/slot-watch';
import { HoldLimits, HoldRefusal } from './hold-limits';
import { grantHoldTime } from './hold-time';
import { errorResponses, publicRoute } from '../base/routes';
import { holdLimitedAnswer, holdRefused } from './hold-answers';

export const IdMismatchMessage = 'The slot id in the request body does not match the slot in the address.';


/** A parent's hold on a slot while they pay: take it (within the network's limits) and end it. */
export const holdRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/slot/:id/reserve',
    {
      schema: {
        tags: ['slots (public)'],
        operationId: 'reserveSlot',
        security: publicRoute,
        summary: `Hold a bookable slot while its visitor pays (at most and by default ${HOLD_MINUTES} minutes, less when the client network has nearly had its ${HOLD_TIME_CAP_MINUTES} minutes on this slot within ${HOLD_TIME_WINDOW_MINUTES / 60} hours: 429 HOLD_TIME_USED; past the network's free holds, 429 HOLD_LIMIT with a proof-of-work challenge)`,
        params: slotIdParamSchema,
        // No body at all means the default hold.
        body: z.preprocess((v) => v ?? {}, reserveBodySchema),
        response: { 200: envelope(reservationSchema), 429: holdLimitedAnswer, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { minutes, proofOfWork } = request.body;
      const limits = await HoldLimits.load(app.db);
      const holder = limits.holder(request.ip);
      // Booked, deleted or held by another: refused at once, before the hold limits are asked.
      const current = await findSlot(app.db, request.params.id);
      if (!current) throw new AppError(404, ErrorCode.NOT_FOUND, SlotNotFoundMessage);
      const seen = visibleRefusal(current, null);
      if (seen) return refuse(seen);
      // A free slot that fits a parent on the waitlist is offered to them first (the pass is asked to run now).
      if (await slotClaimed(app.db, request.params.id)) {
        slotFreed(app.db);
        throw new AppError(409, WaitlistErrorCode.WAITLIST_FIRST as ErrorCode, WaitlistMessage.waitlistFirst);
      }
      try {
        await limits.screen(app.db, holder, proofOfWork);
        const hold = await limits.transaction(app.db, holder, async (tx) => {
          const taken = await reserveSlot(tx, request.params.id, minutes, { holder });
          if ('ok' in taken) return taken;
          // Within the network's hold time on this slot, and over its free holds only with a valid proof of work (either refusal rolls it back).
          const expiresAt = await grantHoldTime(tx, taken.slotId, taken.token, holder, { minutes });
          await limits.admit(tx, holder, proofOfWork);
          return { ...taken, expiresAt };
        });
        if ('ok' in hold) return refuse(hold);
        return ok({ slotId: hold.slotId, token: hold.token, expiresAt: hold.expiresAt.toISOString() }, 'Slot reserved');
      } catch (err) {
        if (!(err instanceof HoldRefusal)) throw err;
        return holdRefused(reply, err);
      }
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
      const released = await releaseHold(app.db, request.params.id, request.body.token);
      if (!released) throw new AppError(409, ErrorCode.HOLD_INVALID, HoldInvalidMessage);
      slotFreed(app.db);
      return ok({ slotId: request.params.id }, 'Slot released');
    },
  );
};
