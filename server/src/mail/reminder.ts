import { brand, dayInMY, inMY, type Locale } from 'shared-api/contract';
import { paragraph, parentMail, questions, type DetailRow, type RenderedMail } from './frame';
import { mailLanguage } from './i18n';
import { childRows, documentsMissing, placeRows, whatToBring, type BookingMailInput, type MissingDocuments } from './templates';

export type ReminderMailInput = {
  reference: string;
  start: Date;
  end: Date;
  school: string;
  visitorName: string;
  /** The child and the year or grade applied for (null on bookings made before they were asked). */
  childName: string | null;
  childYear: string | null;
  /** A booking of several children (issue 37): each child still booked. */
  children?: BookingMailInput['children'];
  /** The full manage URL (a link of its own, minted for this mail). */
  manageUrl: string;
  /** Reschedule and cancel close this many hours before the visit. */
  cutoffHours: number;
  /** When the reminder is written: the subject says "tomorrow" (or "today", or "in N days") by the GMT+8 calendar. */
  now: Date;
  /** The language the parent booked in (default English). */
  locale?: Locale;
  /** Issue 40: each child's documents still missing (documentChecklistFor); the mail lists them, or says all is in. */
  documents?: MissingDocuments[];
};

/** Whole GMT+8 days from `now`'s day to the visit's (0: today, 1: tomorrow). */
function daysUntil(now: Date, start: Date): number {
  const midnight = (d: Date) => dayInMY(inMY(d).format('YYYY-MM-DD'));
  return Math.max(0, midnight(start).diff(midnight(now), 'day'));
}

/** The parent's reminder the day before the visit: when and where (address, map, school phone), for whom, what to bring (or the documents still missing), the form, and the manage link. */
export function renderVisitorReminder(m: ReminderMailInput): RenderedMail {
  const L = mailLanguage(m.locale);
  const date = L.date(m.start);
  const rows: DetailRow[] = [
    [L.t('label.school'), L.school(m.school)],
    ...placeRows(m.school, L),
    [L.t('label.date'), date],
    [L.t('label.time'), L.t('value.timeRange', { start: L.time(m.start), end: L.time(m.end) })],
    ...childRows(m, L),
    [L.t('label.reference'), m.reference],
  ];
  const days = daysUntil(m.now, m.start);
  const hours = m.cutoffHours;
  // What is still missing (with the upload link) in place of the whole list, when the documents are known.
  const bring = m.documents ? documentsMissing(L, m.documents, m.manageUrl) : whatToBring(L);
  const ask = questions(L);
  return parentMail(L, {
    subject: L.t('reminder.subject', { days, date, time: L.time(m.start) }),
    heading: L.html('reminder.heading', { days }),
    name: m.visitorName,
    lead: paragraph(L, 'reminder.lead', { days }),
    rows,
    after: {
      text: [
        ...bring.text,
        '',
        L.t('reminder.form.text', { url: brand.registrationFormUrl }),
        '',
        L.t('reminder.manage.text', { hours, url: m.manageUrl }),
        ask.text,
      ],
      html: `${bring.html}
<p><strong>${L.html('reminder.form.html', {}, brand.registrationFormUrl)}</strong></p>
<p>${L.html('reminder.manage.html', { hours }, m.manageUrl)}</p>
<p>${ask.html}</p>`,
    },
  });
}
