// The dashboard's slot helpers; dates, times and phone numbers are written by lib/format (GMT+8 throughout).
import { parseSlotTime, type StaffSlot } from 'shared-api';
import { dayOf, formatPhone, formatTimeRange } from '../../../lib/format';
import { dashboardText } from '../i18n';

/** The slot's calendar day in GMT+8 as YYYY-MM-DD (a date-time is converted; a bare date is taken as is). */
export const slotDayMY = dayOf;

/** '8:30 AM – 9:00 AM'. */
export const formatSlotTimeRange = (slot: Pick<StaffSlot, 'startTime' | 'endTime'>): string => formatTimeRange(slot.startTime, slot.endTime);

/** Sort key: the day, then the minutes after midnight. */
export const slotSortKey = (slot: Pick<StaffSlot, 'date' | 'startTime'>): string =>
  `${slotDayMY(slot.date)} ${String(parseSlotTime(slot.startTime) ?? 9999).padStart(4, '0')}`;

/** A contact number as Malaysians write it (lib/format), or 'Not provided'. */
export const formatContactNumber = (contact: string | null | undefined): string => formatPhone(contact) ?? dashboardText('notProvided');

/** A slot counts as booked in the dashboard when it has a visitor name (spec section 3). */
export const isBookedSlot = (slot: Pick<StaffSlot, 'visitorName'>): boolean => slot.visitorName !== null;
