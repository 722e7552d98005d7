import { brand, dayInMY, inMY, WHAT_TO_BRING } from 'shared-api/contract';
import { escapeHtml as h, formatDateMY, formatTimeMY, oneLine } from './format';
import { page, row, type RenderedMail } from './templates';

export type ReminderMailInput = {
  reference: string;
  start: Date;
  end: Date;
  school: string;
  visitorName: string;
  /** The full manage URL (a link of its own, minted for this mail). */
  manageUrl: string;
  /** Reschedule and cancel close this many hours before the visit. */
  cutoffHours: number;
  /** When the reminder is written: the subject says "tomorrow" (or "today", or "in N days") by the GMT+8 calendar. */
  now: Date;
};

/** "today", "tomorrow" or "in N days": the visit's GMT+8 day seen from `now`'s. */
function whenWord(now: Date, start: Date): string {
  const midnight = (d: Date) => dayInMY(inMY(d).format('YYYY-MM-DD'));
  const days = midnight(start).diff(midnight(now), 'day');
  return days <= 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`;
}

/** The parent's reminder the day before the visit: when and where, what to bring, the form, and the manage link. */
export function renderVisitorReminder(m: ReminderMailInput): RenderedMail {
  const name = oneLine(m.visitorName);
  const date = formatDateMY(m.start);
  const time = `${formatTimeMY(m.start)} – ${formatTimeMY(m.end)} (GMT+8)`;
  const rows: [string, string][] = [
    ['School', m.school],
    ['Date', date],
    ['Time', time],
    ['Payment reference', m.reference],
  ];
  const when = whenWord(m.now, m.start);
  const hours = `${m.cutoffHours} hour${m.cutoffHours === 1 ? '' : 's'}`;
  const subject = `Reminder: assessment visit ${when}, ${date} at ${formatTimeMY(m.start)} (GMT+8)`;
  const text = [
    `Dear ${name},`,
    '',
    `This is a reminder of your assessment visit ${when}.`,
    '',
    ...rows.map(([k, v]) => `${k}: ${oneLine(v)}`),
    '',
    'What to bring:',
    ...WHAT_TO_BRING.map((item) => `- ${item}`),
    '',
    `Please fill in the registration form before the assessment if you have not yet: ${brand.registrationFormUrl}`,
    '',
    `View, reschedule or cancel your booking (possible until ${hours} before the visit): ${m.manageUrl}`,
    `Questions? Write to ${brand.supportEmail}.`,
    '',
    brand.productName,
  ].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px;">Your visit is ${h(when)}</h1>
<p>Dear ${h(name)},</p>
<p>This is a reminder of your assessment visit ${h(when)}.</p>
<table role="presentation" style="border-collapse:collapse;margin:12px 0;">${rows.map(([k, v]) => row(k, v)).join('')}</table>
<h2 style="font-size:16px;margin:16px 0 8px;">What to bring</h2>
<ul>${WHAT_TO_BRING.map((item) => `<li>${h(item)}</li>`).join('')}</ul>
<p><strong>Please fill in the <a href="${h(brand.registrationFormUrl)}">registration form</a> before the assessment if you have not yet.</strong></p>
<p><a href="${h(m.manageUrl)}">View, reschedule or cancel your booking</a> (possible until ${h(hours)} before the visit).</p>
<p>Questions? Write to <a href="mailto:${h(brand.supportEmail)}">${h(brand.supportEmail)}</a>.</p>`,
  );
  return { subject, text, html, ics: null };
}
