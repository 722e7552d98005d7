import { brand } from 'shared-api/contract';
import { escapeHtml as h, formatDateMY, formatRM, formatTimeMY, oneLine } from './format';
import { buildInvitation } from './ics';

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

/** The spec's what-to-bring list, on the success page and in the visitor's confirmation. */
export const WHAT_TO_BRING = [
  'Parent/guardian ID',
  "Student's birth certificate",
  'Immunization records',
  'Previous academic records',
] as const;

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

/** The school administrator's notification of a new paid booking. */
export function renderAdminNotification(m: BookingMailInput): RenderedMail {
  const name = oneLine(m.visitorName);
  const rows: [string, string][] = [
    ['Visitor', name],
    ['Email', m.visitorEmail],
    ['Contact number', m.visitorContactNo],
    ...details(m),
    ['Payment method', m.method ? (METHOD_NAMES[m.method] ?? m.method) : 'Not reported'],
    ['Payment ID', m.paymentId],
  ];
  const subject = `New booking: ${name}, ${oneLine(m.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  const text = ['A new assessment visit has been booked and paid.', '', ...rows.map(([k, v]) => `${k}: ${oneLine(v)}`), ''].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px;">New booking</h1>
<p>A new assessment visit has been booked and paid.</p>
<table role="presentation" style="border-collapse:collapse;margin:12px 0;">${rows.map(([k, v]) => row(k, v)).join('')}</table>`,
  );
  return { subject, text, html, ics: null };
}
