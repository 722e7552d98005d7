import { ErrorCode, type ErrorReason } from 'shared-api/contract';

/** A refusal with its HTTP status, contract error code and a message the caller can show. */
export class AppError extends Error {
  /** The rule refused and its values, for programs (the envelope's `reason`); set with withReason(). */
  reason?: ErrorReason;
  /** What the refused caller may use to ask again (the envelope's `data`, e.g. a challenge to solve); null by default. */
  data: unknown = null;

  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    /** When to ask again (a 429's Retry-After; the error handler sends it). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }

  /**
   * Names the rule refused, so a client can say it in the parent's language without reading the English `message`:
   * `throw new AppError(409, code, ManageMessage.visitOver).withReason({ rule: 'visitOver' })`.
   */
  withReason(reason: ErrorReason): this {
    this.reason = reason;
    return this;
  }
}

/** 429 RATE_LIMITED with the seconds after which the same request may succeed. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, ErrorCode.RATE_LIMITED, message, retryAfterSeconds);

export const DatabaseUnavailableMessage =
  'The booking system cannot reach its database right now. Please try again in a few minutes.';

export const ok = <T>(data: T, message = 'OK') => ({ success: true as const, data, message });

/** The request's client closed the connection while it waited: nothing was hashed for it, nobody reads an answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before its password was checked.');
    this.name = 'ClientGoneError';
  }
}
