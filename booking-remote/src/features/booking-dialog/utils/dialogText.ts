import { ErrorCode, formatClock, formatDayInMY, HOLD_MINUTES, parseSlotTime, type Locale } from 'shared-api';
import { BookingMessage } from 'shared-api/messages';
import { failureOf, refusalId } from '../../../lib/apiError';
import type { CommonRefusals } from '../../../lib/refusals/i18n';
import type { DialogMessageId, DialogTranslate } from '../i18n';

// The server's refusals are told apart by their error code (BY_CODE), a form rule by the reason's rule: the dialog
// says either in the page's language, never by reading the English words.

/** The booking flow's messages the dialog shows: BookingMessage keys, each an id of the dialog's catalogue. */
export const FLOW_MESSAGES = [
  'slotReserved',
  'slotNotAvailable',
  'initiationFailed',
  'serviceUnavailable',
  'reserveFailed',
  'noBookingData',
  'paymentFailed',
  'paymentSuccess',
  'maxRetries',
  'sessionExpired',
  'cancellationFailed',
] as const satisfies readonly (keyof typeof BookingMessage & DialogMessageId)[];

/** The server's refusals by error code: what the parent is told in a language other than English. */
export const BY_CODE: Partial<Record<string, DialogMessageId>> = {
  [ErrorCode.SLOT_RESERVED]: 'slotReserved',
  [ErrorCode.SLOT_NOT_AVAILABLE]: 'slotNotAvailable',
  [ErrorCode.HOLD_LIMIT]: 'holdLimit',
  [ErrorCode.VISITOR_HAS_HOLD]: 'visitorHasHold',
  [ErrorCode.FEE_MISMATCH]: 'feeMismatch',
  [ErrorCode.NOT_FOUND]: 'slotNotFound',
  [ErrorCode.GATEWAY_ERROR]: 'serviceUnavailable',
};

/** A code whose reason names a rule of its own (issue 37: fewer free places than children). */
const BY_RULE: Partial<Record<string, readonly DialogMessageId[]>> = { [ErrorCode.SLOT_NOT_AVAILABLE]: ['notEnoughPlaces'] };

/** The numbers a code's text says, from the contract's constants (the reason's values, when it gives them, win). */
const VALUES: Partial<Record<DialogMessageId, Record<string, number>>> = { visitorHasHold: { minutes: HOLD_MINUTES } };

/** The dialog's words, and what every page says alike (a form rule the server named, the common refusals). */
export type DialogWords = { t: DialogTranslate; locale: Locale; common: CommonRefusals };

/**
 * What to tell the parent about a failed call. In English: the server's own words (the spec's), else `fallback`.
 * In another language: the text of the form rule its reason names or of its error code, else the server's words as
 * they came (an unknown refusal stays English rather than being lost), else `fallback`.
 */
export function apiErrorText(error: unknown, { t, locale, common }: DialogWords, fallback: DialogMessageId): string {
  const failure = failureOf(error);
  if (locale === 'en') return failure.message ?? t(fallback);
  const id = refusalId(failure, BY_CODE, BY_RULE);
  if (id) return t(id, { ...VALUES[id], ...failure.reason?.params });
  return common(failure) ?? failure.message ?? t(fallback);
}

/** A slot's day and start time in the page's language, for `t('slotWhen', …)`. */
export function slotWhenValues(date: string, startTime: string, locale: Locale): { date: string; time: string } {
  const minutes = parseSlotTime(startTime);
  return { date: formatDayInMY(date, 'longDate', locale), time: minutes === null ? startTime : formatClock(minutes, locale) };
}
