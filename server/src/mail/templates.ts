import {
  bookingChanges,
  brand,
  buildInvitation,
  changeTermsText,
  DOCUMENT_KINDS,
  formatPhone,
  requiredDocumentKinds,
  invitationUid,
  schoolDetails,
  telHref,
  whatToBring as whatToBringItems,
  type ChangeTerms,
  type DocumentKind,
  type Locale,
  type VisitLanguage,
  type VisitTranslate,
} from 'shared-api/contract';
import { escapeHtml as h, formatDateMY, formatRM, formatTimeMY, oneLine } from './format';
import { button, detailLines, page, parentMail, questions, table, type DetailRow, type MailPart, type RenderedMail, type Sentence } from './frame';
import { mailLanguage, type MailLanguage } from './i18n';
import type { RefundCause } from './payment-texts';

export type BookingMailInput = {
  /** Null: a booking staff made without a payment, so no amount, refund or payment is named. */
  paymentId: string | null;
  reference: string;
  amountSen: number;
  method: string | null;
  start: Date;
  end: Date;
  school: string;
  visitorName: string;
  visitorEmail: string;
  visitorContactNo: string;
  /** The child and the year or grade applied for (null on bookings made before they were asked). */
  childName: string | null;
  childYear: string | null;
  /** The parent's manage link for this message (confirmation, rescheduled); absent in admin-only and older messages. */
  manageUrl?: string;
  /** The language the parent booked in: their messages speak it (the admin's stay English). Default English. */
  locale?: Locale;
  /** The refund and change terms as they stood when the message was written (confirmation, rescheduled). */
  terms?: ChangeTerms;
  /** A booking of several children (issue 37): every child, named in place of the one child row. */
  children?: MailChild[];
};

/** One child of a booking of several, as its mails name them. */
export type MailChild = { childName: string; childYear: string; school: string; amountSen: number; cancelled?: boolean };

/** The visitor's part of a mail's input, from any row that names them (a payment, a booked slot). */
export const visitorPart = (v: {
  selectedSchool: string;
  visitorName: string;
  visitorEmail: string;
  visitorContactNo: string;
  childName: string | null;
  childYear: string | null;
}) => ({
  school: v.selectedSchool,
  visitorName: v.visitorName,
  visitorEmail: v.visitorEmail,
  visitorContactNo: v.visitorContactNo,
  childName: v.childName,
  childYear: v.childYear,
});

const METHOD_NAMES: Record<string, string> = { fpx: 'FPX online banking', card: 'Card', ewallet: 'E-wallet', duitnow_qr: 'DuitNow QR' };

/** The parent's language for a message to them. */
const languageOf = (m: { locale?: Locale }): MailLanguage => mailLanguage(m.locale);
/** The admin's messages are English whatever the parent's language. */
const ENGLISH = mailLanguage('en');

/** "9:30 AM – 10:00 AM (GMT+8)" in the language. */
const timeRange = (L: MailLanguage, start: Date, end: Date) => L.t('value.timeRange', { start: L.time(start), end: L.time(end) });
/** "Monday, 23 November 2026, 9:30 AM – 10:00 AM (GMT+8)" in the language. */
const whenText = (L: MailLanguage, start: Date, end: Date) => L.t('value.when', { date: L.date(start), start: L.time(start), end: L.time(end) });

/**
 * Where the visit is (brand.config.json's schoolDetails): the address, and for the parent a map link and the school
 * office's phone (`'address'`: the address alone, for staff who know the rest).
 */
export function placeRows(school: string, L: MailLanguage = ENGLISH, rows: 'full' | 'address' = 'full'): DetailRow[] {
  const place = schoolDetails(school);
  if (!place) return [];
  const address: DetailRow = [L.t('label.address'), place.address];
  if (rows === 'address') return [address];
  return [
    address,
    [L.t('label.map'), place.mapUrl, `<a href="${h(place.mapUrl)}">${L.html('value.openMap')}</a>`],
    [L.t('label.schoolPhone'), place.phone, `<a href="${h(telHref(place.phone))}">${h(place.phone)}</a>`],
  ];
}

/** The child and the year or grade applied for, when the booking has them (bookings made before they were asked do not). */
export function childRows(m: Pick<BookingMailInput, 'school' | 'childName' | 'childYear' | 'children'>, L: MailLanguage = ENGLISH): DetailRow[] {
  // Several children: one row each (those still booked), with their year, school and share.
  if (m.children?.length) return childrenRows(m.children.filter((c) => !c.cancelled), L);
  return [
    ...(m.childName ? [[L.t('label.child'), m.childName] as DetailRow] : []),
    ...(m.childYear ? [[L.t('label.childYear'), L.schoolYear(m.school, m.childYear)] as DetailRow] : []),
  ];
}

/** A row per child of a booking of several: "Child 1: Aisha, Year 1, Seri Ilmu Private Primary, RM 50.00". */
function childrenRows(children: MailChild[], L: MailLanguage): DetailRow[] {
  // Chinese lists take the full-width comma.
  const comma = L.locale === 'zh' ? '，' : ', ';
  return children.map((c, i) => [`${L.t('label.child')} ${i + 1}`, [c.childName, L.schoolYear(c.school, c.childYear), L.school(c.school), L.money(c.amountSen)].join(comma)] as DetailRow);
}

/** The booking's details; `place`: where the visit is (none for a visit that no longer happens), see placeRows. */
function details(m: BookingMailInput, L: MailLanguage = ENGLISH, place: 'full' | 'address' | 'none' = 'none'): DetailRow[] {
  return [
    [L.t('label.school'), L.school(m.school)],
    ...(place === 'none' ? [] : placeRows(m.school, L, place)),
    [L.t('label.date'), L.date(m.start)],
    [L.t('label.time'), timeRange(L, m.start, m.end)],
    ...childRows(m, L),
    ...(m.paymentId === null ? [] : [[L.t('label.amountPaid'), L.money(m.amountSen)] as DetailRow]),
    [L.t('label.reference'), m.reference],
  ];
}

/**
 * The manage link's paragraph in the parent's messages (confirmation, rescheduled; the reminder has its own words):
 * plain text with the address, HTML with the terms and a "Manage your booking" button (the address, some 90 characters,
 * widened the mail past a phone's screen). With the booking's terms it says them in plain words (refund until when,
 * changes until when).
 */
export function manageLinkParagraph(url: string, cutoffHours = bookingChanges.cutoffHours, L: MailLanguage = ENGLISH, terms?: ChangeTerms): { text: string; html: string } {
  const until = terms ? changeTermsText(terms, L.visit) : L.t('manage.until', { hours: cutoffHours });
  return {
    text: `${L.t('manage.link', { url })}\n${until}`,
    html: `<p>${h(until)}</p>\n${button(url, L.html('manage.button'))}`,
  };
}

/** The what-to-bring list as plain-text lines and as HTML. */
export function whatToBring(L: MailLanguage = ENGLISH): { text: string[]; html: string } {
  const items = whatToBringItems(L.visit);
  return {
    text: [L.t('bring.label'), ...items.map((item) => `- ${item}`)],
    html: `<h2 style="font-size:16px;margin:16px 0 8px;">${L.html('bring.title')}</h2>
<ul>${items.map((item) => `<li>${h(item)}</li>`).join('')}</ul>`,
  };
}

/** A document's name in the mail's language: the what-to-bring item of the same place (DOCUMENT_KINDS follows its order). */
const documentName = (L: MailLanguage, kind: DocumentKind) => whatToBringItems(L.visit)[DOCUMENT_KINDS.indexOf(kind)];

/** Each child's lines of a documents list, under the child's name when the booking has `several` children. */
function perChild<C extends { name: string | null }>(L: MailLanguage, children: C[], several: boolean, line: (child: C) => string[]): { text: string[]; html: string } {
  const head = (c: C) => (several && c.name ? L.t('documents.child', { child: oneLine(c.name) }) : null);
  return {
    text: children.flatMap((c) => [...(head(c) ? [head(c) as string] : []), ...line(c).map((item) => `- ${item}`)]),
    html: children
      .map((c) => `${head(c) ? `<p style="margin:8px 0 0;"><strong>${h(head(c) as string)}</strong></p>` : ''}<ul>${line(c).map((item) => `<li>${h(item)}</li>`).join('')}</ul>`)
      .join('\n'),
  };
}

/**
 * What to bring as the visit's checklist (issue 40), per child: each document the child's school asks for, the others
 * said not needed, and the upload link (the manage link) to send them ahead. The confirmation's, once it has a link.
 */
export function documentsChecklist(L: MailLanguage, m: Pick<BookingMailInput, 'school' | 'childName' | 'children'>, uploadUrl: string): { text: string[]; html: string } {
  const booked = m.children?.filter((c) => !c.cancelled) ?? [];
  const children = booked.length > 0 ? booked.map((c) => ({ name: c.childName, school: c.school })) : [{ name: m.childName, school: m.school }];
  const notNeeded = L.visit.translate('documents.notNeeded');
  const list = perChild(L, children, children.length > 1, (c) => {
    const asked = requiredDocumentKinds(c.school);
    return DOCUMENT_KINDS.map((kind) => (asked.includes(kind) ? documentName(L, kind) : L.t('documents.itemState', { item: documentName(L, kind), state: notNeeded })));
  });
  return {
    text: [L.t('bring.label'), ...list.text, L.t('documents.upload.text', { url: uploadUrl })],
    html: `<h2 style="font-size:16px;margin:16px 0 8px;">${L.html('bring.title')}</h2>
${list.html}
<p>${L.html('documents.upload.html', {}, uploadUrl)}</p>`,
  };
}

/** A child's documents still missing the day before (documentChecklistFor), as the reminder lists them. */
export type MissingDocuments = { name: string; missing: DocumentKind[] };

/** The reminder's documents (issue 40): what is still to upload or bring per child, with the upload link, or that all is in. */
export function documentsMissing(L: MailLanguage, children: MissingDocuments[], uploadUrl: string): { text: string[]; html: string } {
  const missing = children.filter((c) => c.missing.length > 0);
  if (missing.length === 0) return { text: [L.t('documents.allIn')], html: `<p>${L.html('documents.allIn')}</p>` };
  const list = perChild(L, missing, children.length > 1, (c) => c.missing.map((kind) => documentName(L, kind)));
  return {
    text: [L.t('documents.missing.label'), ...list.text, L.t('documents.missing.text', { url: uploadUrl })],
    html: `<h2 style="font-size:16px;margin:16px 0 8px;">${L.html('documents.missing.title')}</h2>
${list.html}
<p>${L.html('documents.missing.html', {}, uploadUrl)}</p>`,
  };
}

/**
 * The invitation's texts in the parent's language; for a booking of several children (one event for them all) its
 * "for whom" sentence is followed by each child still booked, as the mail's rows name them.
 */
function invitationLanguage(m: BookingMailInput): Required<VisitLanguage> {
  const L = languageOf(m);
  const booked = m.children?.filter((c) => !c.cancelled) ?? [];
  if (booked.length === 0) return L.visit;
  const names = booked.map((c) => L.t('invitation.child', { child: oneLine(c.childName), year: L.schoolYear(c.school, c.childYear), school: L.school(c.school) }));
  const children = L.t('invitation.children', { children: names.join(L.locale === 'zh' ? '、' : ', ') });
  const translate: VisitTranslate = (id, values) => (id === 'visit.aboutFor' ? L.sentences(L.visit.translate(id, values), children) : L.visit.translate(id, values));
  return { ...L.visit, translate };
}

const invitation = (m: BookingMailInput, organizerEmail: string, change: { sequence?: number; method?: 'CANCEL' } = {}) =>
  buildInvitation({
    ...invitationLanguage(m),
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

type VisitMailParts = {
  subjectKey: 'confirmation.subject' | 'moved.subject';
  headingKey: 'confirmation.heading' | 'moved.heading';
  lead: { text: string; html: string };
  rows: DetailRow[];
  /** The registration form's line (the first confirmation only). */
  withForm: boolean;
  invitationKey: 'invitation.attached' | 'invitation.updated';
  sequence: number;
};

/** The parent's mail about a visit to come (booked or moved): details, what to bring, the manage link, the invitation. */
function visitMail(m: BookingMailInput, organizerEmail: string, parts: VisitMailParts): RenderedMail {
  const L = languageOf(m);
  // With a manage link, what to bring is the documents' checklist with its upload link (issue 40).
  const bring = m.manageUrl ? documentsChecklist(L, m, m.manageUrl) : whatToBring(L);
  const ask = questions(L);
  const manage = m.manageUrl ? manageLinkParagraph(m.manageUrl, bookingChanges.cutoffHours, L, m.terms) : null;
  return parentMail(L, {
    subject: L.t(parts.subjectKey, { school: oneLine(L.school(m.school)), date: L.date(m.start), time: L.time(m.start) }),
    heading: L.html(parts.headingKey),
    name: m.visitorName,
    lead: { text: [parts.lead.text], html: `<p>${parts.lead.html}</p>` },
    rows: parts.rows,
    after: {
      text: [
        ...bring.text,
        '',
        ...(parts.withForm ? [L.t('form.text', { url: brand.registrationFormUrl }), ''] : []),
        ...(manage ? [manage.text, ''] : []),
        L.t(parts.invitationKey),
        ask.text,
      ],
      html: `${bring.html}
${parts.withForm ? `<p><strong>${L.html('form.html', {}, brand.registrationFormUrl)}</strong></p>\n` : ''}${manage ? manage.html + '\n' : ''}<p>${L.sentences(L.html(parts.invitationKey), ask.html)}</p>`,
    },
    ics: invitation(m, organizerEmail, { sequence: parts.sequence }),
  });
}

/** The visitor's confirmation: details, what to bring, the registration form, and an .ics invitation. */
/**
 * Issue 37: a booking has one place, the first child's school's; children applying to schools at different addresses
 * are told where they are all seen (the booking dialog's summary said so before paying). Undefined: one address.
 */
function seenTogether(m: Pick<BookingMailInput, 'school' | 'children'>, L: MailLanguage): { text: string; html: string } | undefined {
  const place = schoolDetails(m.school);
  const booked = m.children?.filter((c) => !c.cancelled) ?? [];
  if (!place || new Set(booked.map((c) => schoolDetails(c.school)?.address ?? c.school)).size < 2) return undefined;
  const values = { school: L.school(m.school), address: place.address };
  return { text: L.t('confirmation.seenTogether', values), html: L.html('confirmation.seenTogether', values) };
}

export function renderVisitorConfirmation(m: BookingMailInput, organizerEmail: string): RenderedMail {
  const L = languageOf(m);
  const together = seenTogether(m, L);
  return visitMail(m, organizerEmail, {
    subjectKey: 'confirmation.subject',
    headingKey: 'confirmation.heading',
    lead: together
      ? { text: L.sentences(L.t('confirmation.lead'), together.text), html: L.sentences(L.html('confirmation.lead'), together.html) }
      : { text: L.t('confirmation.lead'), html: L.html('confirmation.lead') },
    rows: details(m, L, 'full'),
    withForm: true,
    invitationKey: 'invitation.attached',
    sequence: 0,
  });
}

/** Who paid for what, as the admin's messages list it (`extra` rows before the payment's method and id); `withPlace`: the address. */
const adminRows = (m: BookingMailInput, withPlace: boolean, ...extra: DetailRow[]): DetailRow[] => [
  ['Visitor', oneLine(m.visitorName)],
  ['Email', m.visitorEmail],
  ['Contact number', formatPhone(m.visitorContactNo) ?? ''],
  ...details(m, ENGLISH, withPlace ? 'address' : 'none'),
  ...extra,
  ...((m.paymentId === null
    ? [['Payment', 'None (booked by staff)']]
    : [
        ['Payment method', m.method ? (METHOD_NAMES[m.method] ?? m.method) : 'Not reported'],
        ['Payment ID', m.paymentId],
      ]) as [string, string][]),
];

/** An admin message: a heading, one lead sentence and the rows, as plain text and HTML. */
function adminMail(subject: string, heading: string, lead: string, rows: DetailRow[]): RenderedMail {
  const text = [lead, '', ...detailLines(ENGLISH, rows), ''].join('\n');
  return { subject, text, html: page(subject, h(heading), `<p>${h(lead)}</p>\n${table(rows)}`), ics: null };
}

/** The school administrator's notification of a new paid booking. */
export function renderAdminNotification(m: BookingMailInput): RenderedMail {
  const subject = `New booking: ${oneLine(m.visitorName)}, ${oneLine(m.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  return adminMail(subject, 'New booking', 'A new assessment visit has been booked and paid.', adminRows(m, true));
}

/** A paid payment that booked nothing: `amountSen` is what the gateway reported as paid (and is refunded). */
export type RefundMailInput = BookingMailInput & { expectedSen: number; cause: RefundCause; bookingSiteUrl: string };

const ADMIN_CAUSE: Record<RefundCause, string> = {
  slot_taken: 'the slot had been taken (or removed) by the time the payment arrived',
  cancelled: 'the payment arrived after the booking had been cancelled',
  amount_mismatch: 'the amount paid did not match the fee',
};

const CAUSE_TEXT = { slot_taken: 'refund.cause.slotTaken', cancelled: 'refund.cause.cancelled', amount_mismatch: 'refund.cause.amountMismatch' } as const;

/** The close of a mail about a visit that no longer happens: the booking page to choose another time, and whom to ask. */
const bookAgain = (L: MailLanguage, bookingSiteUrl: string, ask: Sentence): MailPart => ({
  text: [L.t('bookAgain.text', { url: bookingSiteUrl }), ask.text],
  html: `<p>${L.html('bookAgain.html', {}, bookingSiteUrl)}</p>\n<p>${ask.html}</p>`,
});

/** The parent's message: why nothing was booked, the refund of what they paid, and who to ask. */
export function renderVisitorRefund(m: RefundMailInput): RenderedMail {
  const L = languageOf(m);
  const amount = L.money(m.amountSen);
  const why = L.t(CAUSE_TEXT[m.cause], { paid: amount, fee: L.money(m.expectedSen) });
  const refund = L.t('refund.full', { amount });
  return parentMail(L, {
    subject: L.t('refund.subject', { amount }),
    heading: L.html('refund.heading'),
    name: m.visitorName,
    lead: { text: [L.t('refund.sorry'), why, '', refund], html: `<p>${L.sentences(L.html('refund.sorry'), h(why))}</p>\n<p><strong>${h(refund)}</strong></p>` },
    rows: details(m, L),
    after: bookAgain(L, m.bookingSiteUrl, questions(L, 'refund.contact')),
  });
}

/** The school administrator's notice of a payment that booked nothing and is being refunded. */
export function renderAdminRefund(m: RefundMailInput): RenderedMail {
  const rows = adminRows(
    m,
    false,
    ['Fee', formatRM(m.expectedSen)],
    ['Refund', `${formatRM(m.amountSen)} being issued automatically; a failed attempt is retried with backoff and listed as a failing refund`],
  );
  const subject = `Paid but not booked, refunding ${formatRM(m.amountSen)}: ${oneLine(m.visitorName)}, ${oneLine(m.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  const lead = `A payment arrived but booked nothing: ${ADMIN_CAUSE[m.cause]}. The parent has been sent an email saying so.`;
  return adminMail(subject, 'Paid but not booked', lead, rows);
}

// ---- After booking: rescheduled and cancelled (issue 13) ----

/**
 * A move: the booking's new slot in `start`/`end`, the old one here; `sequence` is the invitation's new SEQUENCE; `by`
 * who moved it ('parent' or a staff member's email; the parent when absent). No `manageUrl`: a booking with no payment.
 */
export type RescheduleMailInput = BookingMailInput & { fromStart: Date; fromEnd: Date; sequence: number; manageUrl?: string; by?: string };


/** The parent's message that their visit moved: the new time, the old one, what to bring and an updated invitation. */
export function renderVisitorRescheduled(m: RescheduleMailInput, organizerEmail: string): RenderedMail {
  const L = languageOf(m);
  const lead = L.t('moved.lead', { when: whenText(L, m.start, m.end) });
  return visitMail(m, organizerEmail, {
    subjectKey: 'moved.subject',
    headingKey: 'moved.heading',
    lead: { text: lead, html: h(lead) },
    rows: [...details(m, L, 'full'), [L.t('label.previously'), whenText(L, m.fromStart, m.fromEnd)]],
    withForm: false,
    invitationKey: 'invitation.updated',
    sequence: m.sequence,
  });
}

/** The school administrator's notice of a moved booking. */
export function renderAdminRescheduled(m: RescheduleMailInput): RenderedMail {
  const subject = `Booking moved: ${oneLine(m.visitorName)}, ${oneLine(m.school)}, now ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  const from = whenText(ENGLISH, m.fromStart, m.fromEnd);
  const who = !m.by || m.by === 'parent' ? 'The parent' : m.by;
  const lead = `${who} moved this booking from ${from}; the old slot is free again.`;
  return adminMail(subject, 'Booking moved', lead, adminRows(m, true, ['Previously', from]));
}

/**
 * A cancel: `refundSen` is what is given back (0: nothing under the policy), `by` who cancelled ('parent' or a staff
 * member's email), `sequence` the invitation's new SEQUENCE.
 */
export type CancelMailInput = BookingMailInput & { refundSen: number; by: string; sequence: number; bookingSiteUrl: string };

/** The parent's message that the visit is cancelled, with the refund (or none) and a calendar cancellation. */
export function renderVisitorCancelled(m: CancelMailInput, organizerEmail: string): RenderedMail {
  const L = languageOf(m);
  const refunding = m.refundSen > 0;
  // Nothing was paid (a booking staff made): no refund row or sentence.
  const paid = m.paymentId !== null;
  const rows: DetailRow[] = [...details(m, L), ...(paid ? [[L.t('label.refund'), refunding ? L.money(m.refundSen) : L.t('value.noRefund')] as DetailRow] : [])];
  const lead = L.t(m.by === 'parent' ? 'cancelled.byParent' : 'cancelled.bySchool');
  const refund = !paid ? '' : refunding ? L.t('cancelled.refund', { amount: L.money(m.refundSen) }) : L.t('cancelled.noRefund');
  return parentMail(L, {
    subject: L.t('cancelled.subject', { school: oneLine(L.school(m.school)), date: L.date(m.start), time: L.time(m.start) }),
    heading: L.html('cancelled.heading'),
    name: m.visitorName,
    lead: { text: [lead, ...(refund ? [refund] : [])], html: `<p>${h(lead)}</p>${refund ? `\n<p><strong>${h(refund)}</strong></p>` : ''}` },
    rows,
    after: bookAgain(L, m.bookingSiteUrl, questions(L, 'questions.quoteReference')),
    ics: invitation(m, organizerEmail, { sequence: m.sequence, method: 'CANCEL' }),
  });
}

/** The school administrator's notice of a cancelled booking and its refund. */
export function renderAdminCancelled(m: CancelMailInput): RenderedMail {
  const who = m.by === 'parent' ? 'the parent' : m.by;
  const refund = m.paymentId === null ? 'Nothing was paid' : m.refundSen > 0 ? `${formatRM(m.refundSen)} being refunded automatically` : 'None under the policy';
  const subject = `Booking cancelled: ${oneLine(m.visitorName)}, ${oneLine(m.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  const lead = `This booking was cancelled by ${who}; its slot is free again.`;
  return adminMail(subject, 'Booking cancelled', lead, adminRows(m, false, ['Cancelled by', who], ['Refund', refund]));
}

/** One child of a booking of several cancelled (issue 37): that child's share back or none; the others stay booked. */
export type ChildCancelMailInput = BookingMailInput & { child: MailChild & { position: number }; refundSen: number; by: string; bookingSiteUrl: string };

/** The rows of a one-child cancel: the time, that child, the refund, and the children still booked. */
function childCancelRows(m: ChildCancelMailInput, L: MailLanguage): DetailRow[] {
  return [
    [L.t('label.school'), L.school(m.child.school)],
    [L.t('label.date'), L.date(m.start)],
    [L.t('label.time'), timeRange(L, m.start, m.end)],
    [L.t('label.child'), `${m.child.childName}, ${L.schoolYear(m.child.school, m.child.childYear)}`],
    [L.t('label.refund'), m.refundSen > 0 ? L.money(m.refundSen) : L.t('value.noRefund')],
    ...childRows(m, L),
    [L.t('label.reference'), m.reference],
  ];
}

/** The parent's message that one child's visit is cancelled while the others stay booked (no calendar change: the visit stays). */
export function renderVisitorChildCancelled(m: ChildCancelMailInput): RenderedMail {
  const L = languageOf(m);
  const child = oneLine(m.child.childName);
  const lead = L.t(m.by === 'parent' ? 'childCancelled.byParent' : 'childCancelled.bySchool', { child });
  const refund = m.refundSen > 0 ? L.t('cancelled.refund', { amount: L.money(m.refundSen) }) : L.t('cancelled.noRefund');
  const others = L.t('childCancelled.others');
  return parentMail(L, {
    subject: L.t('childCancelled.subject', { child, school: oneLine(L.school(m.child.school)), date: L.date(m.start), time: L.time(m.start) }),
    heading: L.html('childCancelled.heading', { child }),
    name: m.visitorName,
    lead: { text: [lead, refund, others], html: `<p>${h(lead)}</p>\n<p><strong>${h(refund)}</strong></p>\n<p>${h(others)}</p>` },
    rows: childCancelRows(m, L),
    after: { text: [questions(L, 'questions.quoteReference').text], html: `<p>${questions(L, 'questions.quoteReference').html}</p>` },
    ics: null,
  });
}

/** The school administrator's notice of one child cancelled from a booking of several. */
export function renderAdminChildCancelled(m: ChildCancelMailInput): RenderedMail {
  const who = m.by === 'parent' ? 'the parent' : m.by;
  const refund = m.paymentId === null ? 'Nothing was paid' : m.refundSen > 0 ? `${formatRM(m.refundSen)} being refunded automatically` : 'None under the policy';
  const subject = `Child cancelled: ${oneLine(m.child.childName)} (${oneLine(m.visitorName)}), ${oneLine(m.child.school)}, ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  const lead = `${oneLine(m.child.childName)} was cancelled from this booking by ${who}; their seat is free again and the other children stay booked.`;
  return adminMail(subject, 'Child cancelled', lead, adminRows(m, false, ['Child cancelled', oneLine(m.child.childName)], ['Cancelled by', who], ['Refund', refund]));
}

/**
 * One child of a booking of several moved by staff to another time (issue 37): `start`/`end` are that child's new time,
 * `fromStart`/`fromEnd` their old one; the others stay at their time. No invitation: the booking's stays as it was.
 */
export type ChildMoveMailInput = BookingMailInput & { child: MailChild & { position: number }; fromStart: Date; fromEnd: Date; by: string; suffix: string };

/** The rows of a one-child move: the child, where and when now, when before, the children of the booking. */
function childMoveRows(m: ChildMoveMailInput, L: MailLanguage): DetailRow[] {
  return [
    [L.t('label.child'), `${m.child.childName}, ${L.schoolYear(m.child.school, m.child.childYear)}`],
    [L.t('label.school'), L.school(m.child.school)],
    [L.t('label.date'), L.date(m.start)],
    [L.t('label.time'), timeRange(L, m.start, m.end)],
    [L.t('label.previously'), whenText(L, m.fromStart, m.fromEnd)],
    ...placeRows(m.child.school, L),
    ...childRows(m, L),
    [L.t('label.reference'), m.reference],
  ];
}

/** The parent's message that one child's visit moved (named, with the new time); the other children keep theirs. */
export function renderVisitorChildMoved(m: ChildMoveMailInput): RenderedMail {
  const L = languageOf(m);
  const child = oneLine(m.child.childName);
  const lead = L.t('childMoved.lead', { child, when: whenText(L, m.start, m.end) });
  const others = L.t('childMoved.others');
  return parentMail(L, {
    subject: L.t('childMoved.subject', { child, school: oneLine(L.school(m.child.school)), date: L.date(m.start), time: L.time(m.start) }),
    heading: L.html('childMoved.heading', { child }),
    name: m.visitorName,
    lead: { text: [lead, others], html: `<p>${h(lead)}</p>\n<p>${h(others)}</p>` },
    rows: childMoveRows(m, L),
    after: { text: [questions(L, 'questions.quoteReference').text], html: `<p>${questions(L, 'questions.quoteReference').html}</p>` },
    ics: null,
  });
}

/** The school administrator's notice of one child moved from a booking of several. */
export function renderAdminChildMoved(m: ChildMoveMailInput): RenderedMail {
  const from = whenText(ENGLISH, m.fromStart, m.fromEnd);
  const subject = `Child moved: ${oneLine(m.child.childName)} (${oneLine(m.visitorName)}), ${oneLine(m.child.school)}, now ${formatDateMY(m.start)} at ${formatTimeMY(m.start)}`;
  const lead = `${m.by} moved ${oneLine(m.child.childName)} from ${from}; their old seat is free again and the other children stay at their time.`;
  return adminMail(subject, 'Child moved', lead, adminRows(m, false, ['Child moved', oneLine(m.child.childName)], ['Previously', from]));
}
