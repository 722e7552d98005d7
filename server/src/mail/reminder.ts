import { brand, dayInMY, inMY, type Locale } from 'shared-api/contract';
import { oneLine } from './format';
import { link, mailLanguage } from './i18n';
import { childRows, detailLines, page, placeRows, table, whatToBring, type DetailRow, type RenderedMail } from './templates';

export type ReminderMailInput = {
  reference: string;
  start: Date;
  end: Date;
  school: string;
  visitorName: string;
  /** The child and the year or grade applied for (null on bookings made before they were asked). */
  childName: string | null;
  childYear: string | null;
  /** The full manage URL (a link of its own, minted for this mail). */
  manageUrl: string;
  /** Reschedule and cancel close this many hours before the visit. */
  cutoffHours: number;
  /** When the reminder is written: the subject says "tomorrow" (or "today", or "in N days") by the GMT+8 calendar. */
  now: Date;
  /** The language the parent booked in (default English). */
  locale?: Locale;
};

/** Whole GMT+8 days from `now`'s day to the visit's (0: today, 1: tomorrow). */
function daysUntil(now: Date, start: Date): number {
  const midnight = (d: Date) => dayInMY(inMY(d).format('YYYY-MM-DD'));
  return Math.max(0, midnight(start).diff(midnight(now), 'day'));
}

/** The parent's reminder the day before the visit: when and where (address, map, school phone), for whom, what to bring, the form, and the manage link. */
export function renderVisitorReminder(m: ReminderMailInput): RenderedMail {
  const L = mailLanguage(m.locale);
  const name = oneLine(m.visitorName);
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
  const bring = whatToBring(L);
  const subject = L.t('reminder.subject', { days, date, time: L.time(m.start) });
  const text = [
    L.t('greeting', { name }),
    '',
    L.t('reminder.lead', { days }),
    '',
    ...detailLines(L, rows),
    '',
    ...bring.text,
    '',
    L.t('reminder.form.text', { url: brand.registrationFormUrl }),
    '',
    L.t('reminder.manage.text', { hours, url: m.manageUrl }),
    L.t('questions', { email: brand.supportEmail }),
    '',
    brand.productName,
  ].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px;">${L.html('reminder.heading', { days })}</h1>
<p>${L.html('greeting', { name })}</p>
<p>${L.html('reminder.lead', { days })}</p>
${table(rows)}
${bring.html}
<p><strong>${L.html('reminder.form.html', {}, brand.registrationFormUrl)}</strong></p>
<p>${L.html('reminder.manage.html', { hours }, m.manageUrl)}</p>
<p>${L.html('questions', { email: link(`mailto:${brand.supportEmail}`, brand.supportEmail) })}</p>`,
    L.locale,
  );
  return { subject, text, html, ics: null, locale: L.locale };
}
