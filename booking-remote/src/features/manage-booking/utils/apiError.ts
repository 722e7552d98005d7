import { ErrorCode } from 'shared-api';
import { ManageErrorCode } from 'shared-api/manage';
import { failureOf, refusalId } from '../../../lib/apiError';
import type { ManageTextId, ManageWords } from '../i18n';

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
 * Codes the server sends for more than one situation, with the rules (`reason.rule`, a ManageMessage key) each may
 * name: the rule tells them apart (the code alone says CHANGE_CLOSED for a cancelled booking as for a late one).
 */
export const CODE_RULES: Readonly<Record<string, readonly ManageTextId[]>> = {
  [ManageErrorCode.CHANGE_CLOSED]: ['tooLate', 'cancelled', 'visitOver', 'alreadyCancelled'],
  [ErrorCode.PAYMENT_NOT_COMPLETED]: ['notPaid', 'cancelled'],
  [ErrorCode.VALIDATION_ERROR]: ['sameSlot'],
};

/**
 * A failed manage call in the page's language, chosen by the rule the server named or else its error code; in
 * English, a code this page does not know shows the server's own words. Without a code (no answer): `fallback`.
 */
export function errorText(error: unknown, { t, locale }: ManageWords, fallback: ManageTextId): string {
  const failure = failureOf(error);
  const id = refusalId(failure, CODE_TEXTS, CODE_RULES);
  if (id) return t(id);
  if (locale === 'en') return failure.message ?? t(fallback);
  return t(fallback);
}
