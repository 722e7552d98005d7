// Error codes carried in the `error` field of an API answer.
export const ErrorCode = {
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  RATE_LIMITED: 'RATE_LIMITED',
  SLOT_RESERVED: 'SLOT_RESERVED',
  SLOT_NOT_AVAILABLE: 'SLOT_NOT_AVAILABLE',
  SLOT_EXISTS: 'SLOT_EXISTS',
  ACCOUNT_EXISTS: 'ACCOUNT_EXISTS',
  HOLD_INVALID: 'HOLD_INVALID',
  /** 429: this connection holds as many slots as it may; `data.challenge`, when given, earns one more once solved. */
  HOLD_LIMIT: 'HOLD_LIMIT',
  /** 429: this connection, email or phone has held this slot as long as one visitor may (HOLD_TIME_CAP_MINUTES within HOLD_TIME_WINDOW_MINUTES). */
  HOLD_TIME_USED: 'HOLD_TIME_USED',
  /** 409: this email address or phone number already holds another slot. */
  VISITOR_HAS_HOLD: 'VISITOR_HAS_HOLD',
  FEE_MISMATCH: 'FEE_MISMATCH',
  PAYMENT_NOT_COMPLETED: 'PAYMENT_NOT_COMPLETED',
  PAYMENT_NOT_FOUND: 'PAYMENT_NOT_FOUND',
  GATEWAY_ERROR: 'GATEWAY_ERROR',
  BAD_SIGNATURE: 'BAD_SIGNATURE',
  DATABASE_UNAVAILABLE: 'DATABASE_UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;
/** With `NOTICE_OUTDATED` (its value is `shared-api/privacy`'s) and the staff side's AccountErrorCode, off the public page's first load. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | 'NOTICE_OUTDATED' | 'ADMIN_ONLY' | 'STEP_UP_REQUIRED';
