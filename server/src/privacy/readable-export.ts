import { brand, dayInMY, formatPhone, formatRM, inMY, schoolName, type PersonBookingState, type PersonSummary } from 'shared-api/contract';
import { noticeText } from 'shared-api/privacy';
import { escapeHtml as h } from '../mail';

// The access export a parent can read (PDPA s. 30): a plain HTML page that prints on A4, in plain English, with
// Malaysia's times and ringgit; the records as held stay in the JSON and CSV files.

const STATE_TEXT: Record<PersonBookingState, string> = {
  awaiting_payment: 'Waiting for payment',
  payment_failed: 'Payment did not go through',
  payment_cancelled: 'Payment not completed',
  booked: 'Booked (no payment)',
  paid: 'Paid',
  cancelled: 'Cancelled',
  refund_pending: 'Cancelled, refund on its way',
  refunded: 'Cancelled, refunded',
};
const WAITLIST_TEXT: Record<string, string> = {
  pending: 'Not yet confirmed',
  waiting: 'Waiting',
  offered: 'A time was offered',
  booked: 'Booked from the waitlist',
  expired: 'Ended (dates passed)',
  left: 'Left the waitlist',
  removed: 'Removed by the school',
  unconfirmed: 'Never confirmed',
  disowned: 'Not made by you',
};
const PART_OF_DAY: Record<string, string> = { any: 'Any time', morning: 'Mornings', afternoon: 'Afternoons' };
const LANGUAGE: Record<string, string> = { en: 'English', ms: 'Bahasa Melayu', zh: '中文' };
const MAIL_STATUS: Record<string, string> = { sent: 'Sent', pending: 'Waiting to be sent', sending: 'Being sent', failed: 'Could not be sent' };

/** '23 Nov 2026' (GMT+8). */
const day = (isoOrDay: string) => (/^\d{4}-\d{2}-\d{2}$/.test(isoOrDay) ? dayInMY(isoOrDay) : inMY(isoOrDay)).format('D MMM YYYY');
/** '9:00 AM' (GMT+8). */
const time = (iso: string) => inMY(iso).format('h:mm A');
const dayTime = (iso: string) => `${day(iso)}, ${time(iso)}`;

const table = (caption: string, headers: string[], rows: string[][], empty: string) =>
  rows.length === 0
    ? `<p>${h(empty)}</p>`
    : `<table><caption>${h(caption)}</caption><thead><tr>${headers.map((c) => `<th scope="col">${h(c)}</th>`).join('')}</tr></thead><tbody>${rows
        .map((r) => `<tr>${r.map((c) => `<td>${h(c)}</td>`).join('')}</tr>`)
        .join('')}</tbody></table>`;

const bookingState = (b: PersonSummary['bookings'][number]) =>
  b.state === 'refunded' && b.refundSen ? `${STATE_TEXT.refunded} ${formatRM(b.refundSen)}` : STATE_TEXT[b.state];

/**
 * The person's data as a page to hand over: who they are, each booking (school, day, time, amount, state), the
 * waitlist, each consent with its notice version and time, and each message (subject and date, never its body).
 */
export function personHtml(summary: PersonSummary, now: Date): string {
  const facts: [string, string[]][] = [
    ['Name', summary.names],
    ['Email', summary.emails],
    ['Phone', summary.phones.map((p) => formatPhone(p) ?? p)],
    ['Children', summary.children.map((c) => (c.year ? `${c.name} (${c.year})` : c.name))],
  ];
  const you = facts
    .filter(([, values]) => values.length > 0)
    .map(([label, values]) => `<dt>${h(label)}</dt><dd>${values.map(h).join('<br>')}</dd>`)
    .join('');
  const bookings = table(
    'Your bookings',
    ['Reference', 'School', 'Child', 'Day', 'Time', 'Amount', 'State'],
    summary.bookings.map((b) => [
      b.reference,
      b.school ? schoolName(b.school) : '',
      b.childName ?? '',
      day(b.start),
      `${time(b.start)} – ${time(b.end)}`,
      b.amountSen === null ? 'None' : formatRM(b.amountSen),
      b.cancelledAt ? `${bookingState(b)} on ${day(b.cancelledAt)}` : bookingState(b),
    ]),
    'You have made no booking.',
  );
  const waitlist = table(
    'On the waitlist',
    ['School', 'Days', 'Times', 'State', 'Joined'],
    summary.waitlistEntries.map((w) => [schoolName(w.school), `${day(w.fromDate)} to ${day(w.toDate)}`, PART_OF_DAY[w.partOfDay] ?? w.partOfDay, WAITLIST_TEXT[w.state] ?? w.state, day(w.joinedAt)]),
    'You have not joined a waitlist.',
  );
  const consents = table(
    'What you agreed to',
    ['Privacy notice', 'Read in', 'Agreed on'],
    summary.consents.map((c) => [`Version ${c.noticeVersion}`, LANGUAGE[c.language] ?? c.language, dayTime(c.givenAt)]),
    'No consent is recorded.',
  );
  // Each notice agreed to, whole, in the language it was read in (once per version and language).
  const agreed = [...new Map(summary.consents.map((c) => [`${c.noticeVersion}|${c.language}`, c])).values()];
  const notices = agreed
    .map((c) => ({ c, text: noticeText(c.noticeVersion, c.language as Parameters<typeof noticeText>[1]) }))
    .filter((n): n is { c: (typeof agreed)[number]; text: string } => n.text !== undefined)
    .map(({ c, text }) => `<h3>The privacy notice you agreed to: version ${h(c.noticeVersion)}, ${h(LANGUAGE[c.language] ?? c.language)}</h3><pre>${h(text)}</pre>`)
    .join('\n');
  const mails = table(
    'Messages about you',
    ['Subject', 'To', 'Date', 'State'],
    summary.mails.map((m) => [m.subject, m.recipient, dayTime(m.sentAt ?? m.createdAt), MAIL_STATUS[m.status] ?? m.status]),
    'No message was sent about you.',
  );
  const title = `Your personal data held by ${brand.productName}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${h(title)}</title>
<style>
body{font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1c2b29;max-width:50rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%}caption{text-align:left;font-weight:600;padding:.25rem 0}
pre{white-space:pre-wrap;font:inherit}h3{font-size:1rem;margin-top:1.25rem}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid #c9d3d1;overflow-wrap:anywhere}
@media print{body{margin:0;max-width:none}h2{break-after:avoid}tr{break-inside:avoid}}
</style></head>
<body>
<h1>${h(title)}</h1>
<p>This is everything ${h(brand.productName)} holds about you, as on ${h(dayTime(now.toISOString()))}. Days and times are Malaysia time (GMT+8). Questions: ${h(brand.supportEmail)}.</p>
<h2>About you</h2>
${you ? `<dl>${you}</dl>` : '<p>No name or contact is held.</p>'}
<h2>Your bookings</h2>
${bookings}
<h2>The waitlist</h2>
${waitlist}
<h2>Your consent to the privacy notice</h2>
${consents}
${notices}
<h2>Messages about you</h2>
<p>Each message sent to you, or to the school about you: its subject and date (its text is not repeated here).</p>
${mails}
</body></html>
`;
}
