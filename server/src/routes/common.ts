import { envelope, errorEnvelope, holdLimitedSchema } from 'shared-api/contract';

/** Error answers every route may give, listed on /docs. */
export const errorResponses = { '4xx': errorEnvelope, '5xx': errorEnvelope } as const;
export const bearerSecurity = [{ bearerAuth: [] }];
/** 429 on the routes that take holds: HOLD_LIMIT with a challenge (or null data, as any other 429 has). */
export const holdLimitedAnswer = envelope(holdLimitedSchema.nullable());
