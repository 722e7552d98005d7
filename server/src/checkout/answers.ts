import type { FastifyReply } from 'fastify';
import { envelope, errorReasonSchema, holdLimitedSchema } from 'shared-api/contract';
import type { HoldRefusal } from './limits';

/** 429 on the routes that take holds: HOLD_LIMIT with a challenge (or null data: HOLD_TIME_USED, RATE_LIMITED, as any other 429, with its reason). */
export const holdLimitedAnswer = envelope(holdLimitedSchema.nullable()).extend({ reason: errorReasonSchema.optional() });

/** A refused hold's 429: its body, and Retry-After (1 with a challenge: send it again at once with the solution). */
export function holdRefused(reply: FastifyReply, refusal: HoldRefusal) {
  reply.code(429).header('retry-after', String(Math.max(1, Math.ceil(refusal.retryAfter))));
  return refusal.answer();
}
