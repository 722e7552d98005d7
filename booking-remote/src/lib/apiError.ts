import type { ErrorReason } from 'shared-api';
import { errorReasonSchema } from 'shared-api/schemas';

/**
 * What a failed API call said: the HTTP status (or RTK Query's FETCH_ERROR, TIMEOUT_ERROR…), and from the envelope
 * its error code, its words (for people, in English) and its reason (the rule and its values, for the page's language).
 */
export type Failure = { status?: number | string; code?: string; message?: string; reason?: ErrorReason };

/** Reads a failed RTK Query call (anything else, a thrown Error say, reads as a failure that said nothing). */
export function failureOf(error: unknown): Failure {
  if (typeof error !== 'object' || error === null || !('status' in error)) return {};
  const { status, data } = error as { status: number | string; data?: unknown };
  const body = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const reason = errorReasonSchema.safeParse(body.reason);
  return {
    status,
    ...(typeof body.error === 'string' && { code: body.error }),
    ...(typeof body.message === 'string' && body.message.trim() !== '' && { message: body.message }),
    ...(reason.success && { reason: reason.data }),
  };
}

/**
 * The text id a refusal is said with: the rule its reason names, when it is one of those its code may carry (one code
 * can cover several situations), else the code's own text.
 */
export function refusalId<Id extends string>(
  { code, reason }: Failure,
  byCode: Partial<Record<string, Id>>,
  rulesOf: Partial<Record<string, readonly Id[]>> = {},
): Id | undefined {
  if (code === undefined || !Object.hasOwn(byCode, code) && !Object.hasOwn(rulesOf, code)) return undefined;
  return rulesOf[code]?.find((rule) => rule === reason?.rule) ?? byCode[code];
}
