import { formatClock, formatDayInMY, formatInMY, parseSlotTime, type Locale } from 'shared-api';
import { ErrorCode } from 'shared-api';
import { NOTICE_OUTDATED } from 'shared-api/privacy';
import { WaitlistErrorCode, waitlistDatesMessage, waitlistSettings, type WaitlistDatesProblem, type WaitlistSlot } from 'shared-api/waitlist';
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

type ErrorBody = { message?: unknown; error?: unknown };
const bodyOf = (error: unknown): ErrorBody | undefined => {
  const data = (error as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null ? (data as ErrorBody) : undefined;
};
export const statusOf = (error: unknown): number | string | undefined => (error as { status?: number | string } | null)?.status;
export const codeOf = (error: unknown): string | undefined => {
  const code = bodyOf(error)?.error;
  return typeof code === 'string' ? code : undefined;
};

const BY_CODE: Partial<Record<string, WaitlistTextId>> = {
  [WaitlistErrorCode.WAITLIST_SCHOOL]: 'unknownSchool',
  [WaitlistErrorCode.WAITLIST_LINK_INVALID]: 'invalidLink',
  [WaitlistErrorCode.WAITLIST_NOT_LIVE]: 'offer.notLive',
  [NOTICE_OUTDATED]: 'noticeOutdated',
  [ErrorCode.RATE_LIMITED]: 'rateLimited',
  [ErrorCode.HOLD_LIMIT]: 'tooManyTries',
  [ErrorCode.DATABASE_UNAVAILABLE]: 'databaseUnavailable',
  [ErrorCode.INTERNAL]: 'serverError',
};

/** What to tell the parent about a failed call: in English the server's words, else the text for its code, else `fallback`. */
export function errorText(error: unknown, { t, locale }: WaitlistWords, fallback: WaitlistTextId): string {
  const message = bodyOf(error)?.message;
  if (locale === 'en' && typeof message === 'string' && message.trim()) return message;
  const code = codeOf(error);
  if (code === WaitlistErrorCode.WAITLIST_DATES) {
    // The server's words name the rule: say the same rule in the page's language.
    const weeks = waitlistSettings().weeksAhead;
    const problems: [WaitlistDatesProblem, WaitlistTextId][] = [['past', 'datesPast'], ['tooFar', 'datesTooFar'], ['order', 'datesOrder'], ['noWeekday', 'noWeekday']];
    const found = problems.find(([problem]) => waitlistDatesMessage(problem, weeks) === message);
    return t(found ? found[1] : 'datesPast', { weeks });
  }
  const id = code ? BY_CODE[code] : undefined;
  if (id) return t(id);
  if (statusOf(error) === 429) return t('tooManyTries');
  return t(fallback);
}
