import type { StaffWaitlistEntry } from 'shared-api/waitlist';
import { formatDay, formatInstantTime, formatTime } from '../../../lib/format';
import { waitlistText } from '../i18n';

/** "Waiting", "Offered until 10:30", "Booked"…: times GMT+8. */
export function stateText(entry: StaffWaitlistEntry): string {
  if (entry.state === 'offered') return entry.offer ? waitlistText('state.offered', { time: formatInstantTime(entry.offer.expiresAt) }) : waitlistText('state.offeredNoTime');
  return waitlistText(`state.${entry.state}`);
}

/** One offer: the slot's day and time and how it ended (or until when it runs). */
export function offerLine(offer: StaffWaitlistEntry['offers'][number]): string {
  const outcome = offer.outcome ? waitlistText(`outcome.${offer.outcome}`) : waitlistText('outcome.live', { time: formatInstantTime(offer.expiresAt) });
  return waitlistText('offerLine', { day: formatDay(offer.slot.date), time: formatTime(offer.slot.startTime), outcome });
}
