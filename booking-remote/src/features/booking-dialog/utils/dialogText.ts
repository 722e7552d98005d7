import { ErrorCode, formatClock, formatDayInMY, HOLD_MINUTES, parseSlotTime, type Locale } from 'shared-api';
import { BookingMessage, ValidationMessage } from 'shared-api/messages';
import { NOTICE_OUTDATED } from 'shared-api/privacy';
import type { DialogMessageId, DialogTranslate } from '../i18n';
import { apiErrorCode, apiErrorMessage } from './apiError';

// The server's refusals are told apart by their error code (BY_CODE); the form's rules arrive as the contract schema's
// words (zod's messages, and the server's VALIDATION_ERROR), which name the rule: the dialog says either in the page's language.

/** The booking form's rules: ValidationMessage keys, each an id of the dialog's catalogue. */
export const FORM_RULES = [
  'nameTooShort',
  'emailInvalid',
  'phoneInvalid',
  'schoolRequired',
  'nameRequired',
  'emailRequired',
  'contactRequired',
  'childNameRequired',
  'childNameTooShort',
  'childYearRequired',
  'childYearInvalid',
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
export const BY_CODE: Partial<Record<string, DialogMessageId>> = {
  [ErrorCode.SLOT_RESERVED]: 'slotReserved',
  [ErrorCode.SLOT_NOT_AVAILABLE]: 'slotNotAvailable',
  [ErrorCode.HOLD_LIMIT]: 'holdLimit',
  [ErrorCode.VISITOR_HAS_HOLD]: 'visitorHasHold',
  [ErrorCode.FEE_MISMATCH]: 'feeMismatch',
  [NOTICE_OUTDATED]: 'noticeOutdated',
  [ErrorCode.NOT_FOUND]: 'slotNotFound',
  [ErrorCode.GATEWAY_ERROR]: 'serviceUnavailable',
  [ErrorCode.RATE_LIMITED]: 'rateLimited',
  [ErrorCode.DATABASE_UNAVAILABLE]: 'databaseUnavailable',
  [ErrorCode.INTERNAL]: 'serverError',
};

/** The numbers a code's text says, from the contract's constants (never typed into the words). */
const VALUES: Partial<Record<DialogMessageId, Record<string, number>>> = { visitorHasHold: { minutes: HOLD_MINUTES } };

/** The form rule a VALIDATION_ERROR names (its message is the contract schema's words for one rule), if it is one. */
const formRuleOf = (message: string | undefined): DialogMessageId | undefined => FORM_RULES.find((key) => ValidationMessage[key] === message);

/**
 * What to tell the parent about a failed call. In English: the server's own words (the spec's), else `fallback`.
 * In another language: the text for the error code (for VALIDATION_ERROR, the form rule it names), else the server's
 * words as they came (an unknown refusal stays English rather than being lost), else `fallback`.
 */
export function apiErrorText(error: unknown, t: DialogTranslate, locale: Locale, fallback: DialogMessageId): string {
  const message = apiErrorMessage(error);
  if (locale === 'en') return message ?? t(fallback);
  const code = apiErrorCode(error);
  const id = code === ErrorCode.VALIDATION_ERROR ? formRuleOf(message) : code === undefined ? undefined : BY_CODE[code];
  if (id) return t(id, VALUES[id]);
  return message ?? t(fallback);
}

/** A slot's day and start time in the page's language, for `t('slotWhen', …)`. */
export function slotWhenValues(date: string, startTime: string, locale: Locale): { date: string; time: string } {
  const minutes = parseSlotTime(startTime);
  return { date: formatDayInMY(date, 'longDate', locale), time: minutes === null ? startTime : formatClock(minutes, locale) };
}
