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

/** The exact text of spec section 8 for an error of the slot list call. */
export function slotListErrorMessage(error: ApiError): string {
  if (!error || !('status' in error)) return SlotListError.other;
  const { status } = error;
  if (typeof status === 'number') {
    if (status === 404) return SlotListError.notFound;
    if (status === 400) return serverMessage(error) ?? SlotListError.badRequest;
    if (status === 401) return SlotListError.unauthorized;
    if (status === 403) return SlotListError.forbidden;
    if (status >= 500) return SlotListError.server;
    return SlotListError.other;
  }
  switch (status) {
    case 'TIMEOUT_ERROR':
      return SlotListError.timeout;
    case 'PARSING_ERROR':
      return SlotListError.invalidData;
    case 'CUSTOM_ERROR':
      return error.error === SlotListError.invalidData ? SlotListError.invalidData : SlotListError.other;
    case 'FETCH_ERROR':
      // fetch cannot tell a CORS refusal from a dropped connection; a CORS hint in the text is the only signal.
      return /cors/i.test(error.error) ? SlotListError.cors : SlotListError.network;
    default:
      return SlotListError.other;
  }
}
