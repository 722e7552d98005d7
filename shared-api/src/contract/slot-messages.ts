import { SLOT_MINUTES } from './constants';
import { LATEST_SLOT_START_MINUTES, SLOT_MAX_YEARS_AHEAD } from './slot-rules';
import { formatMinutes12 } from './gmt8';

/** Why a slot cannot be created: the server's answers and the create-slots form's errors. */
export const SlotAddMessage = {
  tooEarly: 'Slots can only be created from tomorrow onwards.',
  tooFar: `Slots can only be created up to ${SLOT_MAX_YEARS_AHEAD} years ahead.`,
  timeTooLate: `The latest start time is ${formatMinutes12(LATEST_SLOT_START_MINUTES)}: a slot must end before midnight.`,
  weekend: 'Slots can only be created on weekdays (Monday to Friday).',
  badDate: 'Please choose a real calendar date (YYYY-MM-DD).',
  badTime: 'Time must be HH:mm or hh:mm AM/PM',
  badLength: `The end time must be exactly ${SLOT_MINUTES} minutes after the start time.`,
  duplicate: 'A slot already exists at this date and time.',
} as const;
