// The visit's calendar invitation (RFC 5545), for the confirmation mail and the success page's download, and the
// staff's subscription feed. Plain TS with no Node API, so both the server and the browser build it.
import { brand, schoolName } from './brand';
import { TIMEZONE } from './constants';
import { schoolDetails } from './school-details';
import type { Locale } from './locale';
import en from './locales/en.json';
import { MY_UTC_OFFSET_MINUTES } from './gmt8';
import { formatPhone } from './phone';

// ---- The parent's texts in the parent's language (issue 14) ----
// The what-to-bring items and the invitation's texts are the catalogue `shared-api/locales/{en,ms,zh}.json` (ICU
// MessageFormat, plain `{placeholder}`s only). The builders below never compile a message: they take a `translate`
// function that returns a catalogue text in the invitation's language —
//   - in the browser, the `t` of `useCatalog(catalog)` for a catalogue defined on that JSON
//     (`defineCatalog('shared.visit', en, { ms: () => import('shared-api/locales/ms.json'), zh: ... })`);
//   - on the server, the mail i18n's translator for that language (server/src/mail/i18n.ts).
// Without one they speak English, the spec's words (the output they always had).

/** The ids of the shared catalogue (`whatToBring.0` … `whatToBring.3` follow WHAT_TO_BRING's order). */
export type VisitTextId = keyof typeof en;
export type VisitTextValues = Record<string, string | number | undefined>;
/** A catalogue text in the invitation's language, its `{placeholder}`s filled from `values`. */
export type VisitTranslate = (id: VisitTextId, values?: VisitTextValues) => string;
/** The language of a visit's texts: `locale` picks the school's name and the separators; `translate` gives the texts. */
export type VisitLanguage = { locale?: Locale; translate?: VisitTranslate };

// en.json as Node and Jest read it (ICU text) or as the browser build compiles it (scripts/i18n/catalog-loader.cjs:
// a function per message); its messages use plain placeholders only (calendar.test.ts checks it).
type Compiled = (values: VisitTextValues) => string;
const englishText: VisitTranslate = (id, values = {}) => {
  const message = (en as Record<string, string | Compiled>)[id];
  return typeof message === 'function' ? message(values) : message.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
};

const translator = (language?: VisitLanguage): VisitTranslate => language?.translate ?? englishText;
const localeOf = (language?: VisitLanguage): Locale => language?.locale ?? 'en';
/** Chinese lists take the enumeration comma and its sentences run on without spaces. */
const ITEM_SEPARATOR: Record<Locale, string> = { en: ', ', ms: ', ', zh: '、' };
const SENTENCE_SEPARATOR: Record<Locale, string> = { en: ' ', ms: ' ', zh: '' };
/** Between a school's name and its address: a comma, full-width in Chinese. */
const PLACE_SEPARATOR: Record<Locale, string> = { en: ', ', ms: ', ', zh: '，' };

/** The ids of the what-to-bring items, in WHAT_TO_BRING's order. */
export const WHAT_TO_BRING_IDS = ['whatToBring.0', 'whatToBring.1', 'whatToBring.2', 'whatToBring.3'] as const satisfies readonly VisitTextId[];

/** The what-to-bring items in the language's words (WHAT_TO_BRING in English). */
export const whatToBring = (language?: VisitLanguage): string[] => WHAT_TO_BRING_IDS.map((id) => translator(language)(id));

/** The visit's title, in calendars and in the Google Calendar link (the school's name in the language). */
export const visitTitle = (school: string, language?: VisitLanguage): string =>
  translator(language)('visit.title', { school: schoolName(school, localeOf(language)) });

/** Where the visit is: the school's name in the language and its address ("Seri Ilmu International, 3 Persiaran …"). */
export const visitPlace = (school: string, locale: Locale = 'en'): string => {
  const address = schoolDetails(school)?.address;
  return address ? `${schoolName(school, locale)}${PLACE_SEPARATOR[locale]}${address}` : schoolName(school, locale);
};

/** What the visit is for, what to bring, the school office's phone (the address is the LOCATION) and where the registration form is. */
export const visitDescription = (reference?: string, visitorName?: string, language?: VisitLanguage, school?: string): string => {
  const t = translator(language);
  const locale = localeOf(language);
  const place = school ? schoolDetails(school) : undefined;
  return [
    visitorName ? t('visit.aboutFor', { visitorName }) : t('visit.about'),
    ...(reference ? [t('visit.reference', { reference })] : []),
    t('visit.bring', { items: whatToBring(language).join(ITEM_SEPARATOR[locale]) }),
    ...(place ? [t('visit.contact', { phone: place.phone })] : []),
    t('visit.form', { url: brand.registrationFormUrl }),
  ].join(SENTENCE_SEPARATOR[locale]);
};

/**
 * The calendar UID of a booking's visit: one per booking (its payment reference), the same in the mailed invitation,
 * the success and manage pages' download and the staff's feed, so a calendar that gets two of them keeps one event.
 */
export const invitationUid = (reference: string): string => `${reference}@${brand.supportEmail.split('@')[1] ?? 'booking'}`;


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

/** A Google Calendar "add event" link for the visit, with the same title, place and description as the invitation. */
export const googleCalendarUrl = (visit: { school: string; start: Date; end: Date; reference?: string }, language?: VisitLanguage): string => {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: visitTitle(visit.school, language),
    dates: `${utc(visit.start)}/${utc(visit.end)}`,
    details: visitDescription(visit.reference, undefined, language, visit.school),
    location: visitPlace(visit.school, localeOf(language)),
    ctz: TIMEZONE,
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
};

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
  /** The parent's language (default English): SUMMARY, LOCATION and DESCRIPTION in it; see VisitLanguage. */
  locale?: Locale;
  /** The texts in `locale` (useCatalog's `t` in the browser); without it, English. */
  translate?: VisitTranslate;
};

/** The visit as an .ics file, its times in Asia/Singapore (VTIMEZONE included), lines folded and CRLF-ended. */
export function buildInvitation(input: InvitationInput): string {
  const name = input.visitorName ?? '';
  const language: VisitLanguage = { locale: input.locale, translate: input.translate };
  const invite = input.organizerEmail && input.visitorEmail ? { organizer: input.organizerEmail, visitor: input.visitorEmail } : null;
  const lines = [
    ...calendarHead(input.method ?? (invite ? 'REQUEST' : 'PUBLISH')),
    'BEGIN:VEVENT',
    `UID:${escapeText(input.uid)}`,
    `DTSTAMP:${utc(input.now ?? new Date())}`,
    `DTSTART;TZID=${TIMEZONE}:${local(input.start)}`,
    `DTEND;TZID=${TIMEZONE}:${local(input.end)}`,
    `SUMMARY:${escapeText(visitTitle(input.school, language))}`,
    `LOCATION:${escapeText(visitPlace(input.school, input.locale))}`,
    `DESCRIPTION:${escapeText(visitDescription(input.reference, name, language, input.school))}`,
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
  /** The child and the year or grade applied for (null on bookings made before they were asked). */
  childName: string | null;
  childYear: string | null;
  /** A booking of several children (issue 37): each child still booked, named in one event. */
  children?: { childName: string; childYear: string; school: string }[];
  reference: string;
  /** The booking's invitation SEQUENCE: a move or a cancel raises it, so subscribed calendars take the change. */
  sequence: number;
  cancelled: boolean;
};

/** A visit's title in the staff's calendars: who is assessed, for which year, where ("Assessment: Adam Tan, Year 1 (Seri Ilmu Private Primary)"). */
const feedSummary = (e: FeedEvent): string =>
  e.children?.length
    ? `Assessment: ${e.children.map((c) => `${c.childName}, ${c.childYear} (${c.school})`).join('; ')}`
    : `Assessment: ${e.childName ?? e.visitorName}${e.childYear ? `, ${e.childYear}` : ''} (${e.school})`;

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
      ...(e.children?.length
        ? e.children.map((c, i) => `Child ${i + 1}: ${c.childName}, ${c.childYear}, ${c.school}`)
        : [...(e.childName ? [`Child: ${e.childName}`] : []), ...(e.childYear ? [`Year or grade applied for: ${e.childYear}`] : []), `School: ${e.school}`]),
      `Contact number: ${formatPhone(e.visitorContactNo) ?? ''}`,
      `Email: ${e.visitorEmail}`,
      `Reference: ${e.reference}`,
    ].join('\n');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(e.uid)}`,
      `DTSTAMP:${utc(now)}`,
      `DTSTART;TZID=${TIMEZONE}:${local(e.start)}`,
      `DTEND;TZID=${TIMEZONE}:${local(e.end)}`,
      `SUMMARY:${escapeText(feedSummary(e))}`,
      `LOCATION:${escapeText(visitPlace(e.school))}`,
      `DESCRIPTION:${escapeText(description)}`,
      `STATUS:${e.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
      `SEQUENCE:${e.sequence}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return serialize(lines);
}
