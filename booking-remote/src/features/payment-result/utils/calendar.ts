import { brand, formatClock, formatDayInMY, loadInvitationBuilder, parseSlotTime, schoolName, SLOT_MINUTES, TIMEZONE, type Locale } from 'shared-api';
import { dayjs, slotStart } from 'shared-api/time';
import type { VisitLanguage } from 'shared-api/contract';

export type CalendarVisit = { date: string; startTime: string; endTime?: string; school: string; reference?: string };
/** The parent's language for the calendar texts: the page's locale and the shared catalogue's `t` (English without). */
export type CalendarLanguage = VisitLanguage;

const utcStamp = (d: dayjs.Dayjs) => d.utc().format('YYYYMMDD[T]HHmmss[Z]');

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
  const { visitDescription, visitTitle } = await loadInvitationBuilder();
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: visitTitle(visit.school, language),
    dates: `${utcStamp(span.start)}/${utcStamp(span.end)}`,
    details: visitDescription(visit.reference, undefined, language),
    location: schoolName(visit.school, language?.locale),
    ctz: TIMEZONE,
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/** An iCalendar (.ics) file for the visit, or null when its time cannot be read. */
export async function icsFile(visit: CalendarVisit, now: Date | number = Date.now(), language?: CalendarLanguage): Promise<string | null> {
  const span = visitSpan(visit);
  if (!span) return null;
  const { buildInvitation } = await loadInvitationBuilder();
  const uid = `${visit.reference ?? `${visit.date}-${visit.startTime}`}@${brand.productName.replace(/\s+/g, '-').toLowerCase()}`;
  return buildInvitation({
    uid,
    start: span.start.toDate(),
    end: span.end.toDate(),
    school: visit.school,
    reference: visit.reference,
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
