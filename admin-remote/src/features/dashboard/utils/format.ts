// How the dashboard shows slot dates, times and contact numbers (GMT+8 throughout).
import { formatMinutes12, parseSlotTime, type StaffSlot } from 'shared-api';
import { inMY, slotStart, dayInMY } from 'shared-api/time';
import { dashboardText } from '../i18n';

/** The slot's calendar day in GMT+8 as YYYY-MM-DD (a date-time is converted; a bare date is taken as is). */
export function slotDayMY(date: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const instant = inMY(date);
  return instant.isValid() ? instant.format('YYYY-MM-DD') : date.slice(0, 10);
}

/** 'Nov 23, 2026'. */
export function formatSlotDate(date: string): string {
  const day = dayInMY(slotDayMY(date));
  return day.isValid() ? day.format('MMM DD, YYYY') : date;
}

/** '8:30 AM'; the text as given when it cannot be read. */
export function formatSlotTime(time: string): string {
  const minutes = parseSlotTime(time);
  return minutes === null ? time : formatMinutes12(minutes);
}

/** '8:30 AM - 9:00 AM'. */
export const formatSlotTimeRange = (slot: Pick<StaffSlot, 'startTime' | 'endTime'>): string =>
  `${formatSlotTime(slot.startTime)} - ${formatSlotTime(slot.endTime)}`;

/** An instant's time of day in GMT+8: '9:00 AM'. */
export function formatInstantTime(iso: string): string {
  const instant = inMY(iso);
  return instant.isValid() ? formatMinutes12(instant.hour() * 60 + instant.minute()) : iso;
}

/** A visit given as ISO instants (a booking's start and end): '9:00 AM - 9:30 AM' in GMT+8. */
export const formatInstantTimeRange = (start: string, end: string): string =>
  `${formatInstantTime(start)} - ${formatInstantTime(end)}`;

/** An instant as the dashboard writes it, in GMT+8: 'Nov 24, 2026, 9:00 AM'. */
export const formatDateTime = (iso: string): string => `${formatSlotDate(iso)}, ${formatInstantTime(iso)}`;

/** Sort key: the day, then the minutes after midnight. */
export const slotSortKey = (slot: Pick<StaffSlot, 'date' | 'startTime'>): string =>
  `${slotDayMY(slot.date)} ${String(parseSlotTime(slot.startTime) ?? 9999).padStart(4, '0')}`;

/** Ten digits read as (xxx) xxx-xxxx; any other number as given; nothing as 'Not provided'. */
export function formatContactNumber(contact: string | null | undefined): string {
  const text = (contact ?? '').trim();
  if (!text) return dashboardText('notProvided');
  const digits = text.replace(/\D/g, '');
  if (digits.length === 10 && /^[\d\s()+-]+$/.test(text)) {
    return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
  }
  return text;
}

/** A slot counts as booked in the dashboard when it has a visitor name (spec section 3). */
export const isBookedSlot = (slot: Pick<StaffSlot, 'visitorName'>): boolean => slot.visitorName !== null;

/** A slot whose start (GMT+8) has gone by; a slot whose start cannot be read counts as upcoming, so it stays in view. */
export function isPastSlot(slot: Pick<StaffSlot, 'date' | 'startTime'>, now: number = Date.now()): boolean {
  const start = slotStart(slotDayMY(slot.date), slot.startTime);
  return start !== null && start.valueOf() <= now;
}
