import { errorEnvelope, forbiddenEnvelope } from 'shared-api/contract';

/** The 4xx answers a route may give besides 400 (which every route gives: the input guard reads any URL). */
type ErrorStatus = 401 | 402 | 403 | 404 | 409 | 410 | 429 | 502;

/**
 * A route's error answers on /docs, each status it gives by number; `default` stands for what any route may answer
 * besides (408, 413 and 415 from the framework, 500, and 503 without the database).
 */
export const errorResponses = <S extends ErrorStatus = never>(...statuses: S[]) =>
  Object.fromEntries([400, ...statuses, 'default'].map((status) => [status, status === 403 ? forbiddenEnvelope : errorEnvelope])) as Record<
    400 | S | 'default',
    typeof errorEnvelope
  >;
/** Routes that take a staff member's bearer token (401 without a valid one). */
export const bearerSecurity = [{ bearerAuth: [] }];
/** Routes anyone may call: no credential, or one in the address (a manage link, a feed URL) or the body. */
export const publicRoute: Record<string, string[]>[] = [];
/** The staff token is optional (PUT /slot/{id}: staff book directly, anyone else confirms a payment). */
export const optionalBearer: Record<string, string[]>[] = [{}, { bearerAuth: [] }];
