import { brand, buildInvitation, WHAT_TO_BRING } from 'shared-api/contract';
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
};

export type RenderedMail = { subject: string; text: string; html: string; ics: string | null };

const METHOD_NAMES: Record<string, string> = { fpx: 'FPX online banking', card: 'Card', ewallet: 'E-wallet', duitnow_qr: 'DuitNow QR' };

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${h(title)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7f7;font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1c2b29;">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;border-top:4px solid ${h(brand.brandColor)};">
${body}
<p style="margin-top:24px;font-size:13px;color:#50605e;">${h(brand.productName)} · ${h(brand.supportEmail)}</p>
</div></body></html>`;

const row = (label: string, value: string) =>
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
<p>A calendar invitation is attached. Questions? Write to <a href="mailto:${h(brand.supportEmail)}">${h(brand.supportEmail)}</a>.</p>`,
  );
  const ics = buildInvitation({
    uid: `${m.reference}@${brand.supportEmail.split('@')[1] ?? 'booking'}`,
    start: m.start,
    end: m.end,
    school: m.school,
    visitorName: name,
    visitorEmail: m.visitorEmail,
    reference: m.reference,
    organizerEmail,
  });
  return { subject, text, html, ics };
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
