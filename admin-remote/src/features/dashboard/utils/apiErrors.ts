// Spec section 8: what a failed staff slot listing means, in the product's words.
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { SlotListError } from 'shared-api';

type AnyError = FetchBaseQueryError | SerializedError | undefined;

export const httpStatus = (error: AnyError): number | string | undefined => (error && 'status' in error ? error.status : undefined);

/** The server's `message` from a failed envelope, when it sent one. */
export function serverMessage(error: AnyError): string | undefined {
  if (!error || !('status' in error)) return undefined;
  const message = (error.data as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message.trim() ? message : undefined;
}

export function slotListErrorMessage(error: FetchBaseQueryError | SerializedError | undefined): string {
  if (!error || !('status' in error)) return SlotListError.other;
  const message = (error.data as { message?: unknown } | undefined)?.message;
  switch (error.status) {
    case 404:
      return SlotListError.notFound;
    case 400:
      return typeof message === 'string' && message ? message : SlotListError.badRequest;
    case 401:
      return SlotListError.unauthorized;
    case 403:
      return SlotListError.forbidden;
    case 'FETCH_ERROR':
      return SlotListError.network;
    case 'TIMEOUT_ERROR':
      return SlotListError.timeout;
    case 'PARSING_ERROR':
      return SlotListError.invalidData;
    default:
      return typeof error.status === 'number' && error.status >= 500 ? SlotListError.server : SlotListError.other;
  }
}
