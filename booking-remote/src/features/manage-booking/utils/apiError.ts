import { httpStatus, serverMessage } from 'shared-api';

type ApiError = Parameters<typeof serverMessage>[0];

/** The `error` code of a failed envelope (CHANGE_CLOSED, QUOTE_CHANGED, SLOT_NOT_AVAILABLE…), when the server sent one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const data = (error as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null || !('error' in data)) return undefined;
  const code = (data as { error: unknown }).error;
  return typeof code === 'string' ? code : undefined;
}

/** The server's words for a failed call, or `fallback`. */
export const messageOf = (error: unknown, fallback: string): string => serverMessage(error as ApiError) ?? fallback;

export const statusOf = (error: unknown): number | string | undefined => httpStatus(error as ApiError);
