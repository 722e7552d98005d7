// Turns an RTK Query error into the words a staff member reads.
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

type AnyError = FetchBaseQueryError | SerializedError | undefined;

export function httpStatus(error: AnyError): number | string | undefined {
  return error && 'status' in error ? error.status : undefined;
}

/** The server's `message` from a failed envelope, when it sent one. */
export function serverMessage(error: AnyError): string | undefined {
  if (!error || !('status' in error)) return undefined;
  const data = error.data as { message?: unknown } | undefined;
  return typeof data?.message === 'string' && data.message.trim() ? data.message : undefined;
}
