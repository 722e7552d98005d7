import { brand, HTML_LANG, type Locale } from 'shared-api/contract';
import { escapeHtml as h, oneLine } from './format';
import { link, type MailLanguage, type MailTextId, type MailValues } from './i18n';

// The frame every mail shares: the HTML page, the details table, and for a parent's mail the greeting and the close.
// Each message (templates.ts, reminder.ts, breach-template.ts, the waitlist's) fills in only its own parts.

/** `locale`: the language a parent's message is written in (its Content-Language); absent for staff messages. */
export type RenderedMail = { subject: string; text: string; html: string; ics: string | null; locale?: Locale };

/**
 * On a phone (where the mail program reads a head's style: Apple Mail, Gmail, Outlook's apps) the card loses its
 * margins and each detail's label stands above its value, so a long label or value never squeezes the other.
 */
const PHONE_STYLE = `<style>@media (max-width:480px){body{padding:8px!important}.mail-card{padding:16px!important}.mail-details th,.mail-details td{display:block!important;padding:0!important}.mail-details th{padding-top:8px!important}}</style>`;

/**
 * Every mail's HTML page: the brand colour, its heading (HTML), the body, and the product name and support address at
 * the foot, in `locale`'s `lang`.
 */
export const page = (title: string, heading: string, body: string, locale: Locale = 'en') => `<!doctype html>
<html lang="${HTML_LANG[locale]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${h(title)}</title>${PHONE_STYLE}</head>
<body style="margin:0;padding:24px;background:#f5f7f7;font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1c2b29;">
<div class="mail-card" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;border-top:4px solid ${h(brand.brandColor)};overflow-wrap:anywhere;word-break:break-word;">
<h1 style="font-size:20px;margin:0 0 12px;">${heading}</h1>
${body}
<p style="margin-top:24px;font-size:13px;color:#50605e;">${h(brand.productName)} · ${h(brand.supportEmail)}</p>
</div></body></html>`;

/** One row of a message's details: its label, its value as plain text, and optionally as HTML (a link) for the HTML part. */
export type DetailRow = [label: string, value: string, html?: string];

/**
 * One label / value row of a mail's details table (the value escaped, unless given as HTML). The label never wraps (a
 * Chinese label broke a character a line: 日 / 期); the value wraps, anywhere if it must (the card's rule).
 */
const row = ([label, value, html]: DetailRow) =>
  `<tr><th align="left" style="padding:4px 12px 4px 0;font-weight:600;vertical-align:top;white-space:nowrap;">${h(label)}</th><td style="padding:4px 0;">${html ?? h(value)}</td></tr>`;

/** The details as an HTML table. */
export const table = (rows: DetailRow[]) =>
  `<table role="presentation" class="mail-details" style="border-collapse:collapse;margin:12px 0;">${rows.map(row).join('')}</table>`;

/**
 * A link as a button that mail programs draw alike (a coloured table cell around the link, Outlook included): the
 * address stays out of sight, so a long one cannot widen the mail past a phone's screen.
 */
export const button = (url: string, labelHtml: string) =>
  `<table role="presentation" border="0" cellspacing="0" cellpadding="0" style="margin:16px 0;"><tr><td align="center" bgcolor="${h(brand.brandColor)}" style="border-radius:6px;background:${h(brand.brandColor)};"><a href="${h(url)}" target="_blank" style="display:inline-block;padding:12px 20px;border:1px solid ${h(brand.brandColor)};border-radius:6px;color:#ffffff;font-size:16px;font-weight:600;line-height:20px;text-decoration:none;">${labelHtml}</a></td></tr></table>`;

/** A message's details as plain-text lines ("School: …"). */
export const detailLines = (L: MailLanguage, rows: DetailRow[]) => rows.map(([label, value]) => L.t('value.detail', { label, value: oneLine(value) }));

/** One sentence as plain text and as HTML. */
export type Sentence = { text: string; html: string };

/** "Questions? Write to …" (or another sentence naming the support address): plain text and HTML (a mailto link). */
export const questions = (L: MailLanguage, id: 'questions' | 'questions.quoteReference' | 'refund.contact' = 'questions'): Sentence => ({
  text: L.t(id, { email: brand.supportEmail }),
  html: L.html(id, { email: link(`mailto:${brand.supportEmail}`, brand.supportEmail) }),
});

/** A part of a mail: its plain-text lines and its HTML. */
export type MailPart = { text: string[]; html: string };

/** One sentence of the catalogue as a paragraph. */
export const paragraph = (L: MailLanguage, id: MailTextId, values?: MailValues): MailPart => ({ text: [L.t(id, values)], html: `<p>${L.html(id, values)}</p>` });

/** What one parent's mail says inside the frame. */
export type ParentMailParts = {
  subject: string;
  /** The heading, as HTML. */
  heading: string;
  /** The parent's name as stored (made one line here); null when the name was not given by the mail's reader ("Hello"). */
  name: string | null;
  /** What the mail is about, before the details. */
  lead: MailPart;
  /** The details: a table in HTML, "Label: value" lines in plain text. */
  rows: DetailRow[];
  /** What follows the details, down to whom to ask. */
  after: MailPart;
  ics?: string | null;
};

/**
 * A parent's mail in `L`'s language: "Dear …", the lead, the details and what follows, and the product's name to close
 * (in HTML the page's foot), as plain text and HTML, marked with its language.
 */
export function parentMail(L: MailLanguage, parts: ParentMailParts): RenderedMail {
  const greeting = parts.name === null ? L.t('greetingNoName') : L.t('greeting', { name: oneLine(parts.name) });
  const greetingHtml = parts.name === null ? L.html('greetingNoName') : L.html('greeting', { name: oneLine(parts.name) });
  const { lead, rows, after } = parts;
  const text = [greeting, '', ...lead.text, '', ...detailLines(L, rows), '', ...after.text, '', brand.productName].join('\n');
  const html = page(parts.subject, parts.heading, `<p>${greetingHtml}</p>\n${lead.html}\n${table(rows)}\n${after.html}`, L.locale);
  return { subject: parts.subject, text, html, ics: parts.ics ?? null, locale: L.locale };
}
