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

// The server's manage messages are the contract's English (ManageMessage): the catalogue has an id for each, equal to
// its key, so a parent reading another language gets them translated.
const SERVER_TEXTS: Array<[ManageTextId, string]> = [
  ...(['invalidLink', 'expiredLink', 'cancelled', 'tooManyTries', 'tooLate', 'slotTaken', 'sameSlot', 'quoteChanged', 'notPaid', 'alreadyCancelled', 'visitOver'] as const).map(
    (id): [ManageTextId, string] => [id, ManageMessage[id]],
  ),
];

/** When the server's words are not known here: what its error code means. */
const CODE_TEXTS: Record<string, ManageTextId> = {
  [ManageErrorCode.MANAGE_LINK_INVALID]: 'invalidLink',
  [ManageErrorCode.MANAGE_LINK_EXPIRED]: 'expiredLink',
  [ManageErrorCode.CHANGE_CLOSED]: 'tooLate',
  [ManageErrorCode.QUOTE_CHANGED]: 'quoteChanged',
  [ErrorCode.SLOT_NOT_AVAILABLE]: 'slotTaken',
  [ErrorCode.SLOT_RESERVED]: 'slotTaken',
  [ErrorCode.RATE_LIMITED]: 'tooManyTries',
};

/**
 * A failed manage call in the page's language: the server's message when the catalogue knows it (translated), else in
 * English the server's own words (as they always were shown); in another language what the error code means, else
 * `fallback`.
 */
export function errorText(error: unknown, { t, locale }: ManageWords, fallback: ManageTextId): string {
  const message = serverMessage(error as ApiError);
  const known = message === undefined ? undefined : SERVER_TEXTS.find(([, text]) => text === message)?.[0];
  if (known) return t(known);
  if (locale === 'en') return message ?? t(fallback);
  const code = errorCode(error);
  return t((code !== undefined ? CODE_TEXTS[code] : undefined) ?? fallback);
}
