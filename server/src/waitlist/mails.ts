import type { Locale, PartOfDay } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { button, paragraph, parentMail, questions, type DetailRow, type RenderedMail } from '../mail';
import { mailLanguage, type MailLanguage } from '../mail';
import { messageIdFor } from '../mail';
import { mailOutbox } from '../mail';
import { placeRows } from '../mail';

type EntryPart = { name: string; school: string; fromDate: string; toDate: string; partOfDay: PartOfDay; locale: Locale };

const dayOf = (L: MailLanguage, date: string) => L.date(new Date(`${date}T04:00:00Z`));
const daysText = (L: MailLanguage, e: EntryPart) => L.t(`waitlist.part.${e.partOfDay}`, { from: dayOf(L, e.fromDate), to: dayOf(L, e.toDate) });

/** "You are on the list": the school, the days, the place in line, what happens next, and the entry's private link. */
export function renderWaitlistJoined(e: EntryPart & { place: number | null; url: string; offerMinutes: number }): RenderedMail {
  const L = mailLanguage(e.locale);
  const school = L.school(e.school);
  const rows: DetailRow[] = [
    [L.t('label.school'), school],
    [L.t('label.waitlistDays'), daysText(L, e)],
    ...(e.place ? [[L.t('label.place'), String(e.place)] as DetailRow] : []),
  ];
  const ask = questions(L);
  return parentMail(L, {
    subject: L.t('waitlist.joined.subject', { school }),
    heading: L.html('waitlist.joined.heading'),
    name: e.name,
    lead: paragraph(L, 'waitlist.joined.lead', { school }),
    rows,
    after: {
      text: [L.t('waitlist.joined.next', { minutes: e.offerMinutes }), '', L.t('waitlist.joined.link.text', { url: e.url }), ask.text],
      html: `<p>${L.html('waitlist.joined.next', { minutes: e.offerMinutes })}</p>
<p><strong>${L.html('waitlist.joined.link.html', {}, e.url)}</strong></p>
<p>${ask.html}</p>`,
    },
  });
}

/**
 * "Please confirm your place on the waitlist": who asked (the name given, the school, the days), that nothing happens
 * until it is confirmed (within `confirmHours`), the confirm link, and "this wasn't me" (blocks the address `blockDays`).
 * Both links open a page that asks first: a mail scanner opening them changes nothing.
 */
export function renderWaitlistConfirm(e: EntryPart & { confirmUrl: string; notMeUrl: string; confirmHours: number; blockDays: number }): RenderedMail {
  const L = mailLanguage(e.locale);
  const school = L.school(e.school);
  const rows: DetailRow[] = [
    [L.t('label.school'), school],
    [L.t('label.waitlistAskedBy'), e.name],
    [L.t('label.waitlistDays'), daysText(L, e)],
  ];
  const ask = questions(L);
  return parentMail(L, {
    subject: L.t('waitlist.confirm.subject', { school }),
    heading: L.html('waitlist.confirm.heading'),
    name: null,
    lead: paragraph(L, 'waitlist.confirm.lead', { school, hours: e.confirmHours }),
    rows,
    after: {
      text: [L.t('waitlist.confirm.link.text', { url: e.confirmUrl }), '', L.t('waitlist.confirm.notMe.text', { url: e.notMeUrl, days: e.blockDays }), ask.text],
      html: `${button(e.confirmUrl, L.html('waitlist.confirm.button'))}
<p>${L.html('waitlist.confirm.notMe.html', { days: e.blockDays }, e.notMeUrl)}</p>
<p>${ask.html}</p>`,
    },
  });
}

/** The offer: school, date and time (GMT+8), the fee the checkout charges, until when, the book-and-pay link and the decline link. */
export function renderWaitlistOffer(
  e: EntryPart & { start: Date; end: Date; expiresAt: Date; feeSen: number; children: number; offerUrl: string; declineUrl: string },
): RenderedMail {
  const L = mailLanguage(e.locale);
  const school = L.school(e.school);
  const date = L.date(e.start);
  const until = `${L.date(e.expiresAt)}, ${L.time(e.expiresAt)}`;
  const rows: DetailRow[] = [
    [L.t('label.school'), school],
    ...placeRows(e.school, L, 'address'),
    [L.t('label.date'), date],
    [L.t('label.time'), L.t('value.timeRange', { start: L.time(e.start), end: L.time(e.end) })],
    // Brothers and sisters (issue 37): the places held together, and the fee said per child.
    ...(e.children > 1 ? [[L.t('label.placesHeld'), L.t('value.placesHeld', { count: e.children })] as DetailRow] : []),
    [L.t(e.children > 1 ? 'label.feeEach' : 'label.fee'), L.money(e.feeSen)],
    [L.t('label.offerUntil'), `${until} (GMT+8)`],
  ];
  const ask = questions(L);
  return parentMail(L, {
    subject: L.t('waitlist.offer.subject', { school, date, time: L.time(e.start) }),
    heading: L.html('waitlist.offer.heading'),
    name: e.name,
    lead: paragraph(L, 'waitlist.offer.lead', { until }),
    rows,
    after: {
      text: [
        L.t('waitlist.offer.book.text', { url: e.offerUrl }),
        '',
        L.t('waitlist.offer.decline.text', { url: e.declineUrl }),
        L.t('waitlist.offer.after'),
        ask.text,
      ],
      html: `${button(e.offerUrl, L.html('waitlist.offer.button'))}
<p>${L.html('waitlist.offer.decline.html', {}, e.declineUrl)}</p>
<p>${L.html('waitlist.offer.after')}</p>
<p>${ask.html}</p>`,
    },
  });
}

/**
 * "Your place on the waitlist has ended": the school, the days the parent waited for, that the term the school keeps a
 * place for (`termDays`) has passed, and the booking page (`bookingSiteUrl`) to look for a time or join again.
 */
export function renderWaitlistEntryEnded(e: EntryPart & { termDays: number; bookingSiteUrl: string }): RenderedMail {
  const L = mailLanguage(e.locale);
  const school = L.school(e.school);
  const rows: DetailRow[] = [
    [L.t('label.school'), school],
    [L.t('label.waitlistDaysWanted'), daysText(L, e)],
  ];
  const ask = questions(L);
  return parentMail(L, {
    subject: L.t('waitlist.ended.subject', { school }),
    heading: L.html('waitlist.ended.heading'),
    name: e.name,
    lead: paragraph(L, 'waitlist.ended.lead', { school, termDays: e.termDays }),
    rows,
    after: {
      text: [L.t('waitlist.ended.again.text', { url: e.bookingSiteUrl }), ask.text],
      html: `<p><strong>${L.html('waitlist.ended.again.html', {}, e.bookingSiteUrl)}</strong></p>\n<p>${ask.html}</p>`,
    },
  });
}

/** The kinds of the waitlist's messages: they name an entry's address, not a payment. */
export const WAITLIST_MAIL_KINDS = ['waitlist_confirm', 'waitlist_joined', 'waitlist_offer', 'waitlist_entry_ended'] as const;
export type WaitlistMailKind = (typeof WAITLIST_MAIL_KINDS)[number];
/** The kind of renderWaitlistConfirm's message. */
export const WAITLIST_CONFIRM_KIND = 'waitlist_confirm' satisfies WaitlistMailKind;
/** The kind of renderWaitlistEntryEnded's message. */
export const WAITLIST_ENTRY_ENDED_KIND = 'waitlist_entry_ended' satisfies WaitlistMailKind;

/**
 * Writes a parent's waitlist message to the outbox in the caller's transaction (the one that made the entry or the
 * offer). `key` makes its Message-ID (`<WL-<key>.waitlist-…@domain>`): a repeat of the same key is ignored.
 */
export async function enqueueWaitlistMail(
  tx: DbOrTx,
  kind: WaitlistMailKind,
  recipient: string,
  mail: RenderedMail,
  key: string,
  mailFrom: string,
): Promise<void> {
  await tx
    .insert(mailOutbox)
    .values({
      paymentId: null,
      kind,
      recipient,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      ics: null,
      messageId: messageIdFor(kind, `WL-${key}`, mailFrom),
      locale: mail.locale ?? null,
    })
    .onConflictDoNothing();
}
