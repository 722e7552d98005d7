// The visit's calendar invitation (RFC 5545), for the confirmation mail and the success page's download, and the
// staff's subscription feed. Plain TS with no Node API, so both the server and the browser build it.
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

// The calendar's opening lines: product, method, other calendar properties (they precede every component) and the one
// time zone (GMT+8, no daylight saving since 1982).
const calendarHead = (method: string, properties: string[] = []): string[] => [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  `PRODID:-//${escapeText(brand.productName)}//Assessment Booking//EN`,
  'CALSCALE:GREGORIAN',
  `METHOD:${method}`,
  ...properties,
  'BEGIN:VTIMEZONE',
  `TZID:${TIMEZONE}`,
  'BEGIN:STANDARD',
  'DTSTART:19820101T000000',
  'TZOFFSETFROM:+0730',
  'TZOFFSETTO:+0800',
  'TZNAME:+08',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** Content lines folded and CRLF-ended. */
const serialize = (lines: string[]): string => lines.map(fold).join('\r\n') + '\r\n';

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
    ...calendarHead(input.method ?? (invite ? 'REQUEST' : 'PUBLISH')),
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
  return serialize(lines);
}

/** One visit in the staff's calendar feed. */
export type FeedEvent = {
  uid: string;
  start: Date;
  end: Date;
  school: string;
  visitorName: string;
  visitorEmail: string;
  visitorContactNo: string;
  reference: string;
  /** The booking's invitation SEQUENCE: a move or a cancel raises it, so subscribed calendars take the change. */
  sequence: number;
  cancelled: boolean;
};

/** The staff's feed title in calendar apps. */
export const feedTitle = (): string => `${brand.productName} assessment visits`;

/** The staff's subscription feed (RFC 5545, PUBLISH): one VEVENT per booked visit, cancelled ones as STATUS:CANCELLED. */
export function buildFeed(events: FeedEvent[], now: Date = new Date()): string {
  const lines = calendarHead('PUBLISH', [
    `X-WR-CALNAME:${escapeText(feedTitle())}`,
    `X-WR-TIMEZONE:${TIMEZONE}`,
    // Hints how often to fetch again (Google and Outlook pick their own interval, hours at best).
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ]);
  for (const e of events) {
    const description = [
      `Visitor: ${e.visitorName}`,
      `School: ${e.school}`,
      `Contact number: ${e.visitorContactNo}`,
      `Email: ${e.visitorEmail}`,
      `Reference: ${e.reference}`,
    ].join('\n');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(e.uid)}`,
      `DTSTAMP:${utc(now)}`,
      `DTSTART;TZID=${TIMEZONE}:${local(e.start)}`,
      `DTEND;TZID=${TIMEZONE}:${local(e.end)}`,
      `SUMMARY:${escapeText(`Assessment: ${e.visitorName} (${e.school})`)}`,
      `LOCATION:${escapeText(e.school)}`,
      `DESCRIPTION:${escapeText(description)}`,
      `STATUS:${e.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
      `SEQUENCE:${e.sequence}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return serialize(lines);
}
