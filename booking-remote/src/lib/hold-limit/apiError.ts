type ErrorBody = { error?: unknown };

/** The `error` code of a failed API answer (e.g. HOLD_LIMIT). */
export const apiErrorCode = (error: unknown): string | undefined => {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const data = (error as { data?: unknown }).data;
  const code = typeof data === 'object' && data !== null ? (data as ErrorBody).error : undefined;
  return typeof code === 'string' ? code : undefined;
};
