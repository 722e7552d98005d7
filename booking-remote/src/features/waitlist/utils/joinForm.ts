import type { Resolver } from 'react-hook-form';
import { addDays, isWeekend, todayInMY, type VisitorDetails, type VisitorDetailsInput } from 'shared-api';
import { formResolver, visitorDetailsSchema } from 'shared-api/schemas';
import { waitlistDatesProblem, waitlistSettings, type PartOfDay, type WaitlistDatesProblem } from 'shared-api/waitlist';
import type { WaitlistTextId } from '../i18n';

export type JoinFormInput = VisitorDetailsInput & { fromDate: string; toDate: string; partOfDay: PartOfDay };
export type JoinFormValues = VisitorDetails & { fromDate: string; toDate: string; partOfDay: PartOfDay };

/** The message id a date problem is said with (the contract's rule, the page's words). */
export const DATES_TEXT: Record<WaitlistDatesProblem, WaitlistTextId> = {
  past: 'datesPast',
  invalid: 'datesPast',
  tooFar: 'datesTooFar',
  order: 'datesOrder',
  noWeekday: 'noWeekday',
};
/** A date field's error carries its problem as `type` (the message is the page's, chosen by the component). */
export const DATES_ERROR_PREFIX = 'waitlist-dates:';

const visitorResolver = formResolver(visitorDetailsSchema);

/** The booking form's rules on the visitor's fields (the contract's schema), and the contract's rule on the dates. */
export const joinResolver: Resolver<JoinFormInput, unknown, JoinFormValues> = async (input) => {
  const { fromDate, toDate, partOfDay, ...visitor } = input;
  const checked = await visitorResolver(visitor);
  const problem = waitlistDatesProblem(fromDate, toDate);
  const errors: Record<string, { type: string; message: string }> = { ...checked.errors };
  if (problem) errors[problem === 'order' || problem === 'tooFar' ? 'toDate' : 'fromDate'] = { type: 'dates', message: DATES_ERROR_PREFIX + problem };
  if (Object.keys(errors).length > 0) return { values: {}, errors } as never;
  return { values: { ...(checked.values as VisitorDetails), fromDate, toDate, partOfDay }, errors: {} };
};

/** The first weekday on or after `date`. */
export const firstWeekdayFrom = (date: string): string => {
  let day = date;
  while (isWeekend(day)) day = addDays(day, 1);
  return day;
};

/** The form's first dates: the full day the parent came from (or today), to two weeks later, within the limit. */
export function initialDates(day: string | undefined, now = Date.now()): { fromDate: string; toDate: string; min: string; max: string } {
  const today = todayInMY(now);
  const max = addDays(today, waitlistSettings().weeksAhead * 7);
  const fromDate = firstWeekdayFrom(day && day >= today && day <= max ? day : today);
  const toDate = addDays(fromDate, 11) > max ? max : addDays(fromDate, 11);
  return { fromDate, toDate, min: today, max };
}
