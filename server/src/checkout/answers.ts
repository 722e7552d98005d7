import { envelope, errorReasonSchema, holdLimitedSchema } from 'shared-api/contract';

/**
 * The 429 of the routes that take holds (HoldRefusal, sent by the error handler with its Retry-After): HOLD_LIMIT with a
 * challenge to solve, or null data (HOLD_TIME_USED, RATE_LIMITED, as any other 429, with its reason).
 */
export const holdLimitedAnswer = envelope(holdLimitedSchema.nullable()).extend({ reason: errorReasonSchema.optional() });
