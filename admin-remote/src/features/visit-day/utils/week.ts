// The Today view's day picker: seven days from a first day (today when the view opens), GMT+8.
import { addDays } from 'shared-api';
import { dayInMY } from 'shared-api/time';

/** `first` and the six days after it, as YYYY-MM-DD. */
export const sevenDaysFrom = (first: string): string[] => Array.from({ length: 7 }, (_, i) => addDays(first, i));

/** 'Mon 30': a day picker's short label. */
export const shortDay = (day: string): string => dayInMY(day).format('ddd D');
