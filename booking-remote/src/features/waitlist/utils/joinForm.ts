import type { FieldErrors, Resolver } from 'react-hook-form';
import { addDays, isWeekend, todayInMY, type VisitorDetails, type VisitorDetailsInput } from 'shared-api';
import { waitlistDatesMessage, waitlistDatesProblem, waitlistSettings, type PartOfDay } from 'shared-api/waitlist';
import { visitorResolver } from '../../../lib/visitor-fields/visitorResolver';

export type JoinFormInput = VisitorDetailsInput & { fromDate: string; toDate: string; partOfDay: PartOfDay };
export type JoinFormValues = VisitorDetails & { fromDate: string; toDate: string; partOfDay: PartOfDay };

/** The booking form's rules on the visitor's fields (the contract's schema), and the contract's rule on the dates. */
export const joinResolver: Resolver<JoinFormInput, unknown, JoinFormValues> = async (input) => {
  const { fromDate, toDate, partOfDay, ...visitor } = input;
  const checked = await visitorResolver(visitor, undefined, { fields: {}, shouldUseNativeValidation: false });
  const problem = waitlistDatesProblem(fromDate, toDate);
  const errors: FieldErrors<JoinFormInput> = { ...checked.errors };
  // As the contract's rules: `type` names the problem, the message is the contract's English words.
  if (problem) errors[problem === 'order' || problem === 'tooFar' ? 'toDate' : 'fromDate'] = { type: problem, message: waitlistDatesMessage(problem, waitlistSettings().weeksAhead) };
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
