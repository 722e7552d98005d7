import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { SlotListError } from './contract/messages';

// Reading a failed RTK Query call: every screen takes the server's words from here.
type ApiError = FetchBaseQueryError | SerializedError | undefined;

/** The HTTP status (or RTK Query's FETCH_ERROR, TIMEOUT_ERROR…) of a failed call. */
export const httpStatus = (error: ApiError): number | string | undefined => (error && 'status' in error ? error.status : undefined);

/** The server's `message` from a failed envelope, when it sent one. */
export function serverMessage(error: ApiError): string | undefined {
  if (!error || !('status' in error)) return undefined;
  const data: unknown = error.data;
  if (typeof data !== 'object' || data === null || !('message' in data)) return undefined;
  const { message } = data as { message: unknown };
  return typeof message === 'string' && message.trim() ? message : undefined;
}

/** The rule a failed envelope's `reason` names (e.g. commonPassword), when it names one: a page says it in its own words. */
export function serverRule(error: ApiError): string | undefined {
  if (!error || !('status' in error)) return undefined;
  const data: unknown = error.data;
  const reason = typeof data === 'object' && data !== null ? (data as { reason?: unknown }).reason : undefined;
  const rule = typeof reason === 'object' && reason !== null ? (reason as { rule?: unknown }).rule : undefined;
  return typeof rule === 'string' ? rule : undefined;
}

/** Which of spec section 8's slot list texts fits a failed slot list call (a catalogue can then say it in any language). */
export function slotListErrorKey(error: ApiError): keyof typeof SlotListError {
  if (!error || !('status' in error)) return 'other';
  const { status } = error;
  if (typeof status === 'number') {
    if (status === 404) return 'notFound';
    if (status === 400) return 'badRequest';
    if (status === 401) return 'unauthorized';
    if (status === 403) return 'forbidden';
    if (status >= 500) return 'server';
    return 'other';
  }
  switch (status) {
    case 'TIMEOUT_ERROR':
      return 'timeout';
    case 'PARSING_ERROR':
      return 'invalidData';
    case 'CUSTOM_ERROR':
      return error.error === SlotListError.invalidData ? 'invalidData' : 'other';
    case 'FETCH_ERROR':
      // fetch cannot tell a CORS refusal from a dropped connection; a CORS hint in the text is the only signal.
      return /cors/i.test(error.error) ? 'cors' : 'network';
    default:
      return 'other';
  }
}

/** The exact text of spec section 8 for an error of the slot list call (a 400's own message when the server gave one). */
export function slotListErrorMessage(error: ApiError): string {
  const key = slotListErrorKey(error);
  return (key === 'badRequest' ? serverMessage(error) : undefined) ?? SlotListError[key];
}
