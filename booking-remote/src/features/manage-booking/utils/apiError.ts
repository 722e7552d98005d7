import { ErrorCode, httpStatus, serverMessage } from 'shared-api';
import { ManageErrorCode, ManageMessage } from 'shared-api/manage';
import type { ManageTextId, ManageWords } from '../i18n';

type ApiError = Parameters<typeof serverMessage>[0];

/** The `error` code of a failed envelope (CHANGE_CLOSED, QUOTE_CHANGED, SLOT_NOT_AVAILABLE…), when the server sent one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const data = (error as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null || !('error' in data)) return undefined;
  const code = (data as { error: unknown }).error;
  return typeof code === 'string' ? code : undefined;
}

export const statusOf = (error: unknown): number | string | undefined => httpStatus(error as ApiError);

/**
 * The manage routes' refusals by error code: the catalogue's id for what each means (the catalogue's English is the
 * contract's ManageMessage, word for word).
 */
export const CODE_TEXTS: Readonly<Record<string, ManageTextId>> = {
  [ManageErrorCode.MANAGE_LINK_INVALID]: 'invalidLink',
  [ManageErrorCode.MANAGE_LINK_EXPIRED]: 'expiredLink',
  [ManageErrorCode.CHANGE_CLOSED]: 'tooLate',
  [ManageErrorCode.QUOTE_CHANGED]: 'quoteChanged',
  [ErrorCode.SLOT_NOT_AVAILABLE]: 'slotTaken',
  [ErrorCode.SLOT_RESERVED]: 'slotTaken',
  [ErrorCode.RATE_LIMITED]: 'tooManyTries',
  [ErrorCode.PAYMENT_NOT_FOUND]: 'notPaid',
  [ErrorCode.PAYMENT_NOT_COMPLETED]: 'notPaid',
};

/**
 * Codes the server sends for more than one situation, with the contract's texts each may carry: the text tells them
 * apart (the code alone would say CHANGE_CLOSED for a cancelled booking as for a late one). Only these are compared.
 */
const SHARED_CODES: Readonly<Record<string, readonly ManageTextId[]>> = {
  [ManageErrorCode.CHANGE_CLOSED]: ['tooLate', 'cancelled', 'visitOver', 'alreadyCancelled'],
  [ErrorCode.PAYMENT_NOT_COMPLETED]: ['notPaid', 'cancelled'],
  [ErrorCode.VALIDATION_ERROR]: ['sameSlot'],
};

const textOf = (code: string, message: string | undefined): ManageTextId | undefined =>
  SHARED_CODES[code]?.find((id) => ManageMessage[id as keyof typeof ManageMessage] === message) ?? CODE_TEXTS[code];

/**
 * A failed manage call in the page's language, chosen by the error code the server sent; in English, a code this
 * page does not know shows the server's own words. Without a code (no answer): `fallback`.
 */
export function errorText(error: unknown, { t, locale }: ManageWords, fallback: ManageTextId): string {
  const code = errorCode(error);
  const message = serverMessage(error as ApiError);
  const id = code === undefined ? undefined : textOf(code, message);
  if (id) return t(id);
  if (locale === 'en') return message ?? t(fallback);
  return t(fallback);
}
