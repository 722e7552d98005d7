import { errorEnvelope } from 'shared-api/contract';

/** Error answers every route may give, listed on /docs. */
export const errorResponses = { '4xx': errorEnvelope, '5xx': errorEnvelope } as const;
export const bearerSecurity = [{ bearerAuth: [] }];
