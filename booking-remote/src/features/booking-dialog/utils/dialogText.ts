import { ErrorCode, formatClock, formatDayInMY, parseSlotTime, type Locale } from 'shared-api';
import { BookingMessage, ValidationMessage } from 'shared-api/messages';
import { HoldMessage } from 'shared-api/schemas';
import type { DialogMessageId, DialogTranslate } from '../i18n';
import { apiErrorCode, apiErrorMessage } from './apiError';

// The contract's English words arrive as text (zod's messages, the server's `message`): the dialog finds which text
// it is and says it in the page's language.

/** The booking form's rules: ValidationMessage keys, each an id of the dialog's catalogue. */
export const FORM_RULES = [
  'nameTooShort',
  'emailInvalid',
  'phoneInvalid',
  'schoolRequired',
  'nameRequired',
  'emailRequired',
  'contactRequired',
] as const satisfies readonly (keyof typeof ValidationMessage & DialogMessageId)[];

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

/** A field's message (a ValidationMessage text from the contract's schema) in the page's language; any other as it came. */
export function validationText(message: string, t: DialogTranslate): string;
export function validationText(message: string | undefined, t: DialogTranslate): string | undefined;
export function validationText(message: string | undefined, t: DialogTranslate): string | undefined {
  const rule = FORM_RULES.find((key) => ValidationMessage[key] === message);
  return rule ? t(rule) : message;
}

/** The server's refusals by error code: what the parent is told in a language other than English. */
const BY_CODE: Partial<Record<string, DialogMessageId>> = {
  [ErrorCode.SLOT_RESERVED]: 'slotReserved',
  [ErrorCode.SLOT_NOT_AVAILABLE]: 'slotNotAvailable',
  [ErrorCode.HOLD_LIMIT]: 'holdLimit',
  [ErrorCode.VISITOR_HAS_HOLD]: 'visitorHasHold',
  [ErrorCode.FEE_MISMATCH]: 'feeMismatch',
  [ErrorCode.NOT_FOUND]: 'slotNotFound',
  [ErrorCode.GATEWAY_ERROR]: 'serviceUnavailable',
  [ErrorCode.RATE_LIMITED]: 'rateLimited',
  [ErrorCode.DATABASE_UNAVAILABLE]: 'databaseUnavailable',
  [ErrorCode.INTERNAL]: 'serverError',
};

/** The contract's English texts the server may send as its `message`, to their ids. */
const englishIds = new Map<string, DialogMessageId>([
  ...FORM_RULES.map((key) => [ValidationMessage[key], key] as const),
  ...FLOW_MESSAGES.map((key) => [BookingMessage[key], key] as const),
  [HoldMessage.limit, 'holdLimit'],
]);

/**
 * What to tell the parent about a failed call. In English: the server's own words (the spec's), else `fallback`.
 * In another language: the text for the error code, else for the server's words when they are one of the dialog's
 * contract texts (a form rule, say), else those words as they came (an unknown message stays English rather
 * than being lost), else `fallback`.
 */
export function apiErrorText(error: unknown, t: DialogTranslate, locale: Locale, fallback: DialogMessageId): string {
  const message = apiErrorMessage(error);
  if (locale === 'en') return message ?? t(fallback);
  const code = apiErrorCode(error);
  const id = (code && BY_CODE[code]) || (message && englishIds.get(message));
  if (id) return t(id);
  return message ?? t(fallback);
}

/** A slot's day and start time in the page's language, for `t('slotWhen', …)`. */
export function slotWhenValues(date: string, startTime: string, locale: Locale): { date: string; time: string } {
  const minutes = parseSlotTime(startTime);
  return { date: formatDayInMY(date, 'longDate', locale), time: minutes === null ? startTime : formatClock(minutes, locale) };
}
