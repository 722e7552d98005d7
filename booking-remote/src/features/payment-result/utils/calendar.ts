import { formatClock, formatDayInMY, parseSlotTime, SLOT_MINUTES, type Locale, type PaymentStatusResult } from 'shared-api';
import { dayjs, slotStart } from 'shared-api/time';
import type { VisitLanguage } from 'shared-api/contract';
import { loadInvitationBuilder } from '../../../lib/invitation';

export type CalendarVisit = {
  date: string;
  startTime: string;
  endTime?: string;
  school: string;
  reference?: string;
  /** The invitation's SEQUENCE now (the receipt's `calendarSequence`; 0 when booked). */
  sequence?: number;
};
/** The parent's language for the calendar texts: the page's locale and the shared catalogue's `t` (English without). */
export type CalendarLanguage = VisitLanguage;

/** The visit a payment's receipt shows (the status the server answers). */
export const calendarVisitOf = ({ payment, booking }: PaymentStatusResult): CalendarVisit => ({
  date: booking.date.slice(0, 10),
  startTime: booking.startTime,
  endTime: booking.endTime,
  school: booking.selectedSchool,
  reference: payment.reference,
  sequence: booking.calendarSequence,
});

/** Start and end of the visit; end from endTime when it parses, else start + 30 minutes. */
function visitSpan(visit: CalendarVisit): { start: dayjs.Dayjs; end: dayjs.Dayjs } | null {
  const start = slotStart(visit.date, visit.startTime);
  if (!start) return null;
  const endMinutes = parseSlotTime(visit.endTime);
  const startMinutes = parseSlotTime(visit.startTime) as number;
  const end = endMinutes !== null && endMinutes > startMinutes ? start.add(endMinutes - startMinutes, 'minute') : start.add(SLOT_MINUTES, 'minute');
  return { start, end };
}

/** A Google Calendar "add event" link for the visit, or null when its time cannot be read. */
export async function googleCalendarUrl(visit: CalendarVisit, language?: CalendarLanguage): Promise<string | null> {
  const span = visitSpan(visit);
  if (!span) return null;
  const builder = await loadInvitationBuilder();
  return builder.googleCalendarUrl({ school: visit.school, start: span.start.toDate(), end: span.end.toDate(), reference: visit.reference }, language);
}

/** An iCalendar (.ics) file for the visit, or null when its time cannot be read. */
export async function icsFile(visit: CalendarVisit, now: Date | number = Date.now(), language?: CalendarLanguage): Promise<string | null> {
  const span = visitSpan(visit);
  if (!span) return null;
  const { buildInvitation, invitationUid } = await loadInvitationBuilder();
  return buildInvitation({
    // The mail's UID for a booking: a calendar given both keeps one event.
    uid: invitationUid(visit.reference ?? `${visit.date}-${visit.startTime}`),
    start: span.start.toDate(),
    end: span.end.toDate(),
    school: visit.school,
    reference: visit.reference,
    sequence: visit.sequence,
    now: new Date(now),
    locale: language?.locale,
    translate: language?.translate,
  });
}

/** "Thursday 26 November 2026" and "9:00 AM – 9:30 AM" for a booking (GMT+8), in the given language. */
export function visitWhen(date: string, startTime: string, endTime?: string, locale: Locale = 'en'): { day: string; time: string } {
  const day = formatDayInMY(date.slice(0, 10), 'longDate', locale);
  const start = parseSlotTime(startTime);
  const end = parseSlotTime(endTime);
  const startText = start === null ? startTime : formatClock(start, locale);
  return { day, time: end === null ? startText : `${startText} – ${formatClock(end, locale)}` };
}
