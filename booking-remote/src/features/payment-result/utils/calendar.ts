import { brand, dayjs, formatMinutes12, parseSlotTime, SLOT_MINUTES, slotStart, TIMEZONE, dayInMY } from 'shared-api';

export type CalendarVisit = { date: string; startTime: string; endTime?: string; school: string; reference?: string };

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

const title = (visit: CalendarVisit) => `Assessment visit – ${visit.school}`;
const details = (visit: CalendarVisit) =>
  [`${brand.productName} assessment visit.`, visit.reference ? `Booking reference: ${visit.reference}` : '', `Registration form: ${brand.registrationFormUrl}`]
    .filter(Boolean)
    .join('\n');

/** A Google Calendar "add event" link for the visit, or null when its time cannot be read. */
export function googleCalendarUrl(visit: CalendarVisit): string | null {
  const span = visitSpan(visit);
  if (!span) return null;
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: title(visit),
    dates: `${utcStamp(span.start)}/${utcStamp(span.end)}`,
    details: details(visit),
    location: visit.school,
    ctz: TIMEZONE,
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

// RFC 5545 text values escape backslash, semicolon, comma and newline.
const icsText = (text: string) => text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');

/** An iCalendar (.ics) file for the visit, or null when its time cannot be read. */
export function icsFile(visit: CalendarVisit, now: Date | number = Date.now()): string | null {
  const span = visitSpan(visit);
  if (!span) return null;
  const uid = `${visit.reference ?? `${visit.date}-${visit.startTime}`}@${brand.productName.replace(/\s+/g, '-').toLowerCase()}`;
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${icsText(brand.productName)}//Assessment booking//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${icsText(uid)}`,
    `DTSTAMP:${utcStamp(dayjs(now))}`,
    `DTSTART:${utcStamp(span.start)}`,
    `DTEND:${utcStamp(span.end)}`,
    `SUMMARY:${icsText(title(visit))}`,
    `DESCRIPTION:${icsText(details(visit))}`,
    `LOCATION:${icsText(visit.school)}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** "Thursday 26 November 2026" and "9:00 AM – 9:30 AM" for a booking (GMT+8). */
export function visitWhen(date: string, startTime: string, endTime?: string): { day: string; time: string } {
  const day = dayInMY(date.slice(0, 10)).format('dddd D MMMM YYYY');
  const start = parseSlotTime(startTime);
  const end = parseSlotTime(endTime);
  const startText = start === null ? startTime : formatMinutes12(start);
  return { day, time: end === null ? startText : `${startText} – ${formatMinutes12(end)}` };
}
