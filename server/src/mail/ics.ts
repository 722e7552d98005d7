import { brand, dayjs, inMY, TIMEZONE } from 'shared-api/contract';

// RFC 5545 TEXT escaping: backslash, semicolon, comma and newlines.
/* eslint-disable no-control-regex -- stripping control characters is the point */
const escapeText = (value: string): string =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
// Parameter values (CN=...) are quoted and may not contain a double quote or control characters.
const paramValue = (value: string): string => `"${value.replace(/["\u0000-\u001f\u007f]/g, '')}"`;
/* eslint-enable no-control-regex */

/** Folds a content line at 75 octets (continuation lines start with a space). */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
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

const local = (d: Date) => inMY(d).format('YYYYMMDDTHHmmss');
const utc = (d: Date) => dayjs(d).utc().format('YYYYMMDDTHHmmss[Z]');

export type InvitationInput = {
  uid: string;
  start: Date;
  end: Date;
  school: string;
  visitorName: string;
  visitorEmail: string;
  reference: string;
  organizerEmail: string;
  now?: Date;
};

/** A calendar invitation for the visit, with its times in Asia/Singapore (VTIMEZONE included). */
export function buildInvitation(input: InvitationInput): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeText(brand.productName)}//Assessment Booking//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:REQUEST',
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
    `SUMMARY:${escapeText(`Assessment visit: ${input.school}`)}`,
    `LOCATION:${escapeText(input.school)}`,
    `DESCRIPTION:${escapeText(
      `Assessment visit for ${input.visitorName}. Payment reference ${input.reference}. ` +
        `Please bring: parent/guardian ID, the student's birth certificate, immunization records and previous academic records. ` +
        `Registration form: ${brand.registrationFormUrl}`,
    )}`,
    `ORGANIZER;CN=${paramValue(brand.productName)}:mailto:${input.organizerEmail}`,
    `ATTENDEE;CN=${paramValue(input.visitorName)};ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:${input.visitorEmail}`,
    'STATUS:CONFIRMED',
    'SEQUENCE:0',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join('\r\n') + '\r\n';
}
