import { ErrorCode, formatClock, formatDayInMY, formatInMY, parseSlotTime, type Locale } from 'shared-api';
import { WaitlistErrorCode, waitlistSettings, type WaitlistDatesProblem, type WaitlistSlot } from 'shared-api/waitlist';
import { failureOf, refusalId } from '../../../lib/apiError';
import type { WaitlistTextId, WaitlistWords } from '../i18n';

const clock = (time: string, locale: Locale) => {
  const minutes = parseSlotTime(time);
  return minutes === null ? time : formatClock(minutes, locale);
};

/** A slot's day in the page's language (GMT+8). */
export const slotDay = (slot: WaitlistSlot, locale: Locale) => formatDayInMY(slot.date, 'longDate', locale);
export const slotStart = (slot: WaitlistSlot, locale: Locale) => clock(slot.startTime, locale);
export const slotSpan = (slot: WaitlistSlot, { t, locale }: WaitlistWords) =>
  t('timeValue', { from: clock(slot.startTime, locale), to: clock(slot.endTime, locale) });
/** An instant as the page says "until when": day and time, GMT+8. */
export const instant = (iso: string, locale: Locale) => `${formatInMY(iso, 'longDate', locale)}, ${formatInMY(iso, 'time', locale)}`;
export const dayText = (date: string, locale: Locale) => formatDayInMY(date, 'longDate', locale);

/** A waitlist link the server refused (unknown, or asked about too often): what the page says instead of the entry. */
export function linkRefusalOf(error: unknown): WaitlistTextId | undefined {
  const { status } = failureOf(error);
  return status === 404 ? 'invalidLink' : status === 429 ? 'tooManyTries' : undefined;
}

/** The message id a date problem is said with (the contract's rule, the page's words). */
const DATES_TEXT: Record<WaitlistDatesProblem, WaitlistTextId> = {
  past: 'datesPast',
  invalid: 'datesPast',
  tooFar: 'datesTooFar',
  order: 'datesOrder',
  noWeekday: 'noWeekday',
};
export const isDatesProblem = (rule: string | undefined): rule is WaitlistDatesProblem => rule !== undefined && Object.hasOwn(DATES_TEXT, rule);
/** A dates problem (the contract's rule) in the page's language, with the weeks it names. */
export const datesText = (problem: WaitlistDatesProblem, t: WaitlistWords['t'], weeks: string | number = waitlistSettings().weeksAhead) =>
  t(DATES_TEXT[problem], { weeks });

/** Refusals told apart by the rule they name: a network at its live entries (429 RATE_LIMITED, reason networkFull). */
const BY_RULE: Partial<Record<string, readonly WaitlistTextId[]>> = { [ErrorCode.RATE_LIMITED]: ['networkFull'] };

const BY_CODE: Partial<Record<string, WaitlistTextId>> = {
  [WaitlistErrorCode.WAITLIST_SCHOOL]: 'unknownSchool',
  [WaitlistErrorCode.WAITLIST_LINK_INVALID]: 'invalidLink',
  [WaitlistErrorCode.WAITLIST_NOT_LIVE]: 'offer.notLive',
  [ErrorCode.HOLD_LIMIT]: 'tooManyTries',
};

/**
 * What to tell the parent about a failed call: in English the server's words; else for dates refused, the problem
 * its reason names (the weeks it gives); else the rule or the code's text; else `fallback`.
 */
export function errorText(error: unknown, { t, locale, common }: WaitlistWords, fallback: WaitlistTextId): string {
  const failure = failureOf(error);
  if (locale === 'en' && failure.message) return failure.message;
  if (failure.code === WaitlistErrorCode.WAITLIST_DATES) {
    const rule = failure.reason?.rule;
    return datesText(isDatesProblem(rule) ? rule : 'past', t, failure.reason?.params?.weeks);
  }
  const id = refusalId(failure, BY_CODE, BY_RULE);
  if (id) return t(id, failure.reason?.params);
  const said = common(failure);
  if (said) return said;
  if (failure.status === 429) return t('tooManyTries');
  return t(fallback);
}
