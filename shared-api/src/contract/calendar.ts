// The visit's calendar invitation (RFC 5545), for the confirmation mail and the success page's download. Plain TS
// with no Node API, so both the server and the browser build it.
import { brand } from './brand';
import { TIMEZONE } from './constants';
import { MY_UTC_OFFSET_MINUTES } from './time';
import { WHAT_TO_BRING } from './what-to-bring';

/** The visit's title, in calendars and in the Google Calendar link. */
export const visitTitle = (school: string): string => `Assessment visit: ${school}`;

/** What the visit is for, what to bring and where the registration form is. */
export const visitDescription = (reference?: string, visitorName?: string): string =>
  `Assessment visit${visitorName ? ` for ${visitorName}` : ''}.${reference ? ` Payment reference ${reference}.` : ''} ` +
  `Please bring: ${WHAT_TO_BRING.join(', ')}. Registration form: ${brand.registrationFormUrl}`;

// TEXT values escape backslash, semicolon, comma and newlines; control characters are dropped.
/* eslint-disable no-control-regex -- stripping control characters is the point */
const escapeText = (value: string): string =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
// Parameter values (CN=...) are quoted and may not contain a double quote or control characters.
const paramValue = (value: string): string => `"${value.replace(/["\u0000-\u001f\u007f]/g, '')}"`;
/* eslint-enable no-control-regex */

const utf8Length = (ch: string): number => {
  const code = ch.codePointAt(0) as number;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

/** Folds a content line at 75 octets (continuation lines start with a space), never inside a character. */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const ch of line) {
    const size = utf8Length(ch);
    if (bytes + size > (out.length ? 74 : 75)) {
      out.push(current);
      current = '';
      bytes = 0;
    }
    current += ch;
    bytes += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

// "20261123T093000": the ISO form without separators; GMT+8 has had no daylight saving since 1982.
const stamp = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '');
const local = (d: Date) => stamp(d.getTime() + MY_UTC_OFFSET_MINUTES * 60_000);
const utc = (d: Date) => `${stamp(d.getTime())}Z`;

export type InvitationInput = {
  uid: string;
  start: Date;
  end: Date;
  school: string;
  reference?: string;
  visitorName?: string;
  /** With both addresses the file is an invitation from the school (METHOD:REQUEST); without, an event to add (PUBLISH). */
  organizerEmail?: string;
  visitorEmail?: string;
  now?: Date;
  /** Each change of a sent invitation raises it (RFC 5546): 0 when booked. */
  sequence?: number;
  /** CANCEL: the visit is called off (an invitation with the same UID and a higher sequence). */
  method?: 'CANCEL';
};

/** The visit as an .ics file, its times in Asia/Singapore (VTIMEZONE included), lines folded and CRLF-ended. */
export function buildInvitation(input: InvitationInput): string {
  const name = input.visitorName ?? '';
  const invite = input.organizerEmail && input.visitorEmail ? { organizer: input.organizerEmail, visitor: input.visitorEmail } : null;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeText(brand.productName)}//Assessment Booking//EN`,
    'CALSCALE:GREGORIAN',
    `METHOD:${input.method ?? (invite ? 'REQUEST' : 'PUBLISH')}`,
    'BEGIN:VTIMEZONE',
    `TZID:${TIMEZONE}`,
    'BEGIN:STANDARD',
    'DTSTART:19820101T000000',
    'TZOFFSETFROM:+0730',
    'TZOFFSETTO:+0800',
    'TZNAME:+08',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    `UID:${escapeText(input.uid)}`,
    `DTSTAMP:${utc(input.now ?? new Date())}`,
    `DTSTART;TZID=${TIMEZONE}:${local(input.start)}`,
    `DTEND;TZID=${TIMEZONE}:${local(input.end)}`,
    `SUMMARY:${escapeText(visitTitle(input.school))}`,
    `LOCATION:${escapeText(input.school)}`,
    `DESCRIPTION:${escapeText(visitDescription(input.reference, name))}`,
    ...(invite
      ? [
          `ORGANIZER;CN=${paramValue(brand.productName)}:mailto:${invite.organizer}`,
          `ATTENDEE;CN=${paramValue(name)};ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:${invite.visitor}`,
        ]
      : []),
    `STATUS:${input.method ? 'CANCELLED' : 'CONFIRMED'}`,
    `SEQUENCE:${input.sequence ?? 0}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join('\r\n') + '\r\n';
}
