import { ErrorCode } from 'shared-api/contract';

/** A refusal with its HTTP status, contract error code and a message the caller can show. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const DatabaseUnavailableMessage =
  'The booking system cannot reach its database right now. Please try again in a few minutes.';

export const ok = <T>(data: T, message = 'OK') => ({ success: true as const, data, message });
