import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

type ErrorBody = { message?: unknown; error?: unknown };

const body = (error: unknown): ErrorBody | undefined => {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    const data = (error as FetchBaseQueryError & { data?: unknown }).data;
    if (typeof data === 'object' && data !== null) return data as ErrorBody;
  }
  return undefined;
};

/** The `error` code of a failed API answer (e.g. SLOT_RESERVED). */
export const apiErrorCode = (error: unknown): string | undefined => {
  const code = body(error)?.error;
  return typeof code === 'string' ? code : undefined;
};

/** The server's `message` of a failed API answer, when it gave one. */
export const apiErrorMessage = (error: unknown): string | undefined => {
  const message = body(error)?.message;
  return typeof message === 'string' && message.trim() ? message : undefined;
};
