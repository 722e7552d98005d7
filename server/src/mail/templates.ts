import { bookingChanges, brand, buildInvitation, WHAT_TO_BRING } from 'shared-api/contract';
import { escapeHtml as h, formatDateMY, formatRM, formatTimeMY, oneLine } from './format';
import { refundCauseText, type RefundCause } from '../payments/texts';

export type BookingMailInput = {
  paymentId: string;
  reference: string;
  amountSen: number;
  method: string | null;
  start: Date;
  end: Date;
  school: string;
  visitorName: string;
  visitorEmail: string;
  visitorContactNo: string;
  /** The parent's manage link for this message (confirmation, rescheduled); absent in admin-only and older messages. */
  manageUrl?: string;
};

export type RenderedMail = { subject: string; text: string; html: string; ics: string | null };

const METHOD_NAMES: Record<string, string> = { fpx: 'FPX online banking', card: 'Card', ewallet: 'E-wallet', duitnow_qr: 'DuitNow QR' };

/** Every mail's HTML frame (brand colour, product name and support address at the foot). */
export const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${h(title)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7f7;font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1c2b29;">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;border-top:4px solid ${h(brand.brandColor)};">
${body}
<p style="margin-top:24px;font-size:13px;color:#50605e;">${h(brand.productName)} · ${h(brand.supportEmail)}</p>
</div></body></html>`;

/** One label / value row of a mail's details table. */
export const row = (label: string, value: string) =>
  `<tr><th align="left" style="padding:4px 12px 4px 0;font-weight:600;vertical-align:top;">${h(label)}</th><td style="padding:4px 0;">${h(value)}</td></tr>`;

function details(m: BookingMailInput): [string, string][] {
  return [
    ['School', m.school],
    ['Date', formatDateMY(m.start)],
    ['Time', `${formatTimeMY(m.start)} – ${formatTimeMY(m.end)} (GMT+8)`],
    ['Amount paid', formatRM(m.amountSen)],
    ['Payment reference', m.reference],
  ];
}

/** The calendar UID of a booking's visit: one per booking, kept when it is moved or cancelled. */
export const invitationUid = (reference: string): string => `${reference}@${brand.supportEmail.split('@')[1] ?? 'booking'}`;

const hoursText = (hours: number) => `${hours} hour${hours === 1 ? '' : 's'}`;

/**
 * The manage link's paragraph in the parent's messages (confirmation, rescheduled; the reminder has its own words):
 * plain text and HTML.
 */
export function manageLinkParagraph(url: string, cutoffHours = bookingChanges.cutoffHours): { text: string; html: string } {
  const until = `Changes and cancellations are possible until ${hoursText(cutoffHours)} before the visit.`;
  return {
    text: `To change or cancel your booking, use this link: ${url}\n${until}`,
    html: `<p>To change or cancel your booking, use this link: <a href="${h(url)}">${h(url)}</a><br>${h(until)}</p>`,
  };
}

/** The what-to-bring list as plain-text lines and as HTML. */
export function whatToBring(): { text: string[]; html: string } {
  return {
    text: ['What to bring:', ...WHAT_TO_BRING.map((item) => `- ${item}`)],
    html: `<h2 style="font-size:16px;margin:16px 0 8px;">What to bring</h2>
<ul>${WHAT_TO_BRING.map((item) => `<li>${h(item)}</li>`).join('')}</ul>`,
  };
}

const invitation = (m: BookingMailInput, organizerEmail: string, change: { sequence?: number; method?: 'CANCEL' } = {}) =>
  buildInvitation({
    uid: invitationUid(m.reference),
    start: m.start,
    end: m.end,
    school: m.school,
    visitorName: oneLine(m.visitorName),
    visitorEmail: m.visitorEmail,
    reference: m.reference,
    organizerEmail,
    ...change,
  });

const table = (rows: [string, string][]) =>
  `<table role="presentation" style="border-collapse:collapse;margin:12px 0;">${rows.map(([k, v]) => row(k, v)).join('')}</table>`;

/** The visitor's confirmation: details, what to bring, the registration form, and an .ics invitation. */
export function renderVisitorConfirmation(m: BookingMailInput, organizerEmail: string): RenderedMail {
  const name = oneLine(m.visitorName);
  const rows = details(m);
  const subject = `Booking confirmed: ${oneLine(m.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)} (GMT+8)`;
  const text = [
    `Dear ${name},`,
    '',
    'Your assessment visit is confirmed and your payment has been received.',
    '',
    ...rows.map(([k, v]) => `${k}: ${oneLine(v)}`),
    '',
    'What to bring:',
    ...WHAT_TO_BRING.map((item) => `- ${item}`),
    '',
    `Please fill in the registration form before the assessment: ${brand.registrationFormUrl}`,
    '',
    ...(m.manageUrl ? [manageLinkParagraph(m.manageUrl).text, ''] : []),
    'A calendar invitation is attached.',
    `Questions? Write to ${brand.supportEmail}.`,
    '',
    brand.productName,
  ].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px;">Your booking is confirmed</h1>
<p>Dear ${h(name)},</p>
<p>Your assessment visit is confirmed and your payment has been received.</p>
<table role="presentation" style="border-collapse:collapse;margin:12px 0;">${rows.map(([k, v]) => row(k, v)).join('')}</table>
<h2 style="font-size:16px;margin:16px 0 8px;">What to bring</h2>
<ul>${WHAT_TO_BRING.map((item) => `<li>${h(item)}</li>`).join('')}</ul>
<p><strong>Please fill in the <a href="${h(brand.registrationFormUrl)}">registration form</a> before the assessment.</strong></p>
${m.manageUrl ? manageLinkParagraph(m.manageUrl).html + '\n' : ''}<p>A calendar invitation is attached. Questions? Write to <a href="mailto:${h(brand.supportEmail)}">${h(brand.supportEmail)}</a>.</p>`,
  );
  return { subject, text, html, ics: invitation(m, organizerEmail, { sequence: 0 }) };
}

/** Who paid for what, as the admin's messages list it (`extra` rows before the payment's method and id). */
const adminRows = (m: BookingMailInput, ...extra: [string, string][]): [string, string][] => [
  ['Visitor', oneLine(m.visitorName)],
  ['Email', m.visitorEmail],
  ['Contact number', m.visitorContactNo],
  ...details(m),
  ...extra,
  ['Payment method', m.method ? (METHOD_NAMES[m.method] ?? m.method) : 'Not reported'],
  ['Payment ID', m.paymentId],
];

/** An admin message: a heading, one lead sentence and the rows, as plain text and HTML. */
function adminMail(subject: string, heading: string, lead: string, rows: [string, string][]): RenderedMail {
  const text = [lead, '', ...rows.map(([k, v]) => `${k}: ${oneLine(v)}`), ''].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px;">${h(heading)}</h1>
<p>${h(lead)}</p>
<table role="presentation" style="border-collapse:collapse;margin:12px 0;">${rows.map(([k, v]) => row(k, v)).join('')}</table>`,
  );
  return { subject, text, html, ics: null };
}

/** The school administrator's notification of a new paid booking. */
export function renderAdminNotification(m: BookingMailInput): RenderedMail {
  const subject = `New booking: ${oneLine(m.visitorName)}, ${oneLine(m.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  return adminMail(subject, 'New booking', 'A new assessment visit has been booked and paid.', adminRows(m));
}

/** A paid payment that booked nothing: `amountSen` is what the gateway reported as paid (and is refunded). */
export type RefundMailInput = BookingMailInput & { expectedSen: number; cause: RefundCause; bookingSiteUrl: string };

const ADMIN_CAUSE: Record<RefundCause, string> = {
  slot_taken: 'the slot had been taken (or removed) by the time the payment arrived',
  cancelled: 'the payment arrived after the booking had been cancelled',
  amount_mismatch: 'the amount paid did not match the fee',
};

/** The parent's message: why nothing was booked, the refund of what they paid, and who to ask. */
export function renderVisitorRefund(m: RefundMailInput): RenderedMail {
  const name = oneLine(m.visitorName);
  const rows = details(m);
  const why = refundCauseText(m.cause, m.amountSen, m.expectedSen);
  const refund = `A full refund of ${formatRM(m.amountSen)} is being issued to the same payment method you used. How soon it shows depends on your bank or card issuer.`;
  const again = `You are welcome to choose another time on the booking page: ${m.bookingSiteUrl}`;
  const contact = `If you have a question, or the refund has not arrived, please write to ${brand.supportEmail} and quote your payment reference.`;
  const subject = `Your booking could not be completed: refund of ${formatRM(m.amountSen)}`;
  const text = [
    `Dear ${name},`,
    '',
    'Thank you for your payment, and we are sorry.',
    why,
    '',
    refund,
    '',
    ...rows.map(([k, v]) => `${k}: ${oneLine(v)}`),
    '',
    again,
    contact,
    '',
    brand.productName,
  ].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px;">Your payment is being refunded</h1>
<p>Dear ${h(name)},</p>
<p>Thank you for your payment, and we are sorry. ${h(why)}</p>
<p><strong>${h(refund)}</strong></p>
<table role="presentation" style="border-collapse:collapse;margin:12px 0;">${rows.map(([k, v]) => row(k, v)).join('')}</table>
<p>You are welcome to choose another time on the <a href="${h(m.bookingSiteUrl)}">booking page</a>.</p>
<p>If you have a question, or the refund has not arrived, please write to <a href="mailto:${h(brand.supportEmail)}">${h(brand.supportEmail)}</a> and quote your payment reference.</p>`,
  );
  return { subject, text, html, ics: null };
}

/** The school administrator's notice of a payment that booked nothing and is being refunded. */
export function renderAdminRefund(m: RefundMailInput): RenderedMail {
  const rows = adminRows(
    m,
    ['Fee', formatRM(m.expectedSen)],
    ['Refund', `${formatRM(m.amountSen)} being issued automatically; a failed attempt is retried with backoff and listed as a failing refund`],
  );
  const subject = `Paid but not booked, refunding ${formatRM(m.amountSen)}: ${oneLine(m.visitorName)}, ${oneLine(m.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  const lead = `A payment arrived but booked nothing: ${ADMIN_CAUSE[m.cause]}. The parent has been sent an email saying so.`;
  return adminMail(subject, 'Paid but not booked', lead, rows);
}

// ---- After booking: rescheduled and cancelled (issue 13) ----

/** A move: the booking's new slot in `start`/`end`, the old one here; `sequence` is the invitation's new SEQUENCE. */
export type RescheduleMailInput = BookingMailInput & { fromStart: Date; fromEnd: Date; sequence: number; manageUrl: string };

const whenText = (start: Date, end: Date) => `${formatDateMY(start)}, ${formatTimeMY(start)} – ${formatTimeMY(end)} (GMT+8)`;

/** The parent's message that their visit moved: the new time, the old one, what to bring and an updated invitation. */
export function renderVisitorRescheduled(m: RescheduleMailInput, organizerEmail: string): RenderedMail {
  const name = oneLine(m.visitorName);
  const rows: [string, string][] = [...details(m), ['Previously', whenText(m.fromStart, m.fromEnd)]];
  const link = manageLinkParagraph(m.manageUrl);
  const bring = whatToBring();
  const subject = `Booking moved: ${oneLine(m.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)} (GMT+8)`;
  const lead = `Your assessment visit has been moved to ${whenText(m.start, m.end)}. The fee you paid stays the same.`;
  const text = [
    `Dear ${name},`,
    '',
    lead,
    '',
    ...rows.map(([k, v]) => `${k}: ${oneLine(v)}`),
    '',
    ...bring.text,
    '',
    link.text,
    '',
    'An updated calendar invitation is attached.',
    `Questions? Write to ${brand.supportEmail}.`,
    '',
    brand.productName,
  ].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px;">Your booking has been moved</h1>
<p>Dear ${h(name)},</p>
<p>${h(lead)}</p>
${table(rows)}
${bring.html}
${link.html}
<p>An updated calendar invitation is attached. Questions? Write to <a href="mailto:${h(brand.supportEmail)}">${h(brand.supportEmail)}</a>.</p>`,
  );
  return { subject, text, html, ics: invitation(m, organizerEmail, { sequence: m.sequence }) };
}

/** The school administrator's notice of a moved booking. */
export function renderAdminRescheduled(m: RescheduleMailInput): RenderedMail {
  const subject = `Booking moved: ${oneLine(m.visitorName)}, ${oneLine(m.school)}, now ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  const lead = `The parent moved this booking from ${whenText(m.fromStart, m.fromEnd)}; the old slot is free again.`;
  return adminMail(subject, 'Booking moved', lead, adminRows(m, ['Previously', whenText(m.fromStart, m.fromEnd)]));
}

/**
 * A cancel: `refundSen` is what is given back (0: nothing under the policy), `by` who cancelled ('parent' or a staff
 * member's email), `sequence` the invitation's new SEQUENCE.
 */
export type CancelMailInput = BookingMailInput & { refundSen: number; by: string; sequence: number };

const refundSentence = (m: CancelMailInput) =>
  m.refundSen > 0
    ? `A refund of ${formatRM(m.refundSen)} is being issued to the same payment method you used. How soon it shows depends on your bank or card issuer.`
    : 'No refund applies under the cancellation policy.';

/** The parent's message that the visit is cancelled, with the refund (or none) and a calendar cancellation. */
export function renderVisitorCancelled(m: CancelMailInput, organizerEmail: string): RenderedMail {
  const name = oneLine(m.visitorName);
  const rows: [string, string][] = [...details(m), ['Refund', m.refundSen > 0 ? formatRM(m.refundSen) : 'None']];
  const lead = m.by === 'parent' ? 'Your assessment visit has been cancelled as you asked.' : 'Your assessment visit has been cancelled by the school.';
  const refund = refundSentence(m);
  const again = `You are welcome to book another time on the booking page.`;
  const contact = `Questions? Write to ${brand.supportEmail} and quote your payment reference.`;
  const subject = `Booking cancelled: ${oneLine(m.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)} (GMT+8)`;
  const text = [`Dear ${name},`, '', lead, refund, '', ...rows.map(([k, v]) => `${k}: ${oneLine(v)}`), '', again, contact, '', brand.productName].join(
    '\n',
  );
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px;">Your booking has been cancelled</h1>
<p>Dear ${h(name)},</p>
<p>${h(lead)}</p>
<p><strong>${h(refund)}</strong></p>
${table(rows)}
<p>${h(again)}</p>
<p>Questions? Write to <a href="mailto:${h(brand.supportEmail)}">${h(brand.supportEmail)}</a> and quote your payment reference.</p>`,
  );
  return { subject, text, html, ics: invitation(m, organizerEmail, { sequence: m.sequence, method: 'CANCEL' }) };
}

/** The school administrator's notice of a cancelled booking and its refund. */
export function renderAdminCancelled(m: CancelMailInput): RenderedMail {
  const who = m.by === 'parent' ? 'the parent' : m.by;
  const refund = m.refundSen > 0 ? `${formatRM(m.refundSen)} being refunded automatically` : 'None under the policy';
  const subject = `Booking cancelled: ${oneLine(m.visitorName)}, ${oneLine(m.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  const lead = `This booking was cancelled by ${who}; its slot is free again.`;
  return adminMail(subject, 'Booking cancelled', lead, adminRows(m, ['Cancelled by', who], ['Refund', refund]));
}
