import { whatToBring, type Locale } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { mailLanguage } from '../mail';
import { enqueueWhatsApp, type EnqueueWhatsApp } from './outbox';

// What the booking flows send a parent on WhatsApp (issue 38): each kind's input as the template catalogue
// (cloud/templates.ts) names it, formatted in the parent's language as their mails are. Email goes regardless.

/** The parent's opt-in as the payment or waitlist entry records it (migration 0038). */
export type OptInColumns = { whatsappOptInAt: Date | null; whatsappOptOutAt: Date | null };
const optInOf = (row: OptInColumns) => ({ at: row.whatsappOptInAt, withdrawnAt: row.whatsappOptOutAt });

/** Template parameters may hold no line breaks or long runs of spaces (the platform refuses them). */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const YOUR_CHILD: Record<Locale, string> = { en: 'your child', ms: 'anak anda', zh: '您的孩子' };

export type VisitWhatsApp = OptInColumns & {
  paymentId: string;
  locale: Locale;
  visitorName: string;
  visitorContactNo: string;
  school: string;
  start: Date;
  /** The children seen at this time, by name (none named: "your child"). */
  childNames: string[];
  manageUrl: string;
  now: Date;
};

const visitParts = (v: VisitWhatsApp) => {
  const L = mailLanguage(v.locale);
  return { L, parentName: oneLine(v.visitorName), school: L.school(v.school), date: L.date(v.start), time: L.time(v.start) };
};
const base = (v: VisitWhatsApp): Pick<EnqueueWhatsApp, 'locale' | 'to' | 'paymentId' | 'now' | 'optIn'> => ({
  locale: v.locale,
  to: v.visitorContactNo,
  paymentId: v.paymentId,
  now: v.now,
  optIn: optInOf(v),
});

/** The confirmation after paying (written with the booking, as its mail is). */
export function enqueueConfirmationWhatsApp(tx: DbOrTx, v: VisitWhatsApp): Promise<number | null> {
  const { L, ...parts } = visitParts(v);
  return enqueueWhatsApp(tx, {
    ...base(v),
    dedupeKey: `booking:${v.paymentId}:confirmation`,
    kind: 'booking_confirmation',
    input: { parentName: parts.parentName, school: parts.school, date: parts.date, time: parts.time, bring: oneLine(whatToBring(L.visit).join('; ')), manageUrl: v.manageUrl },
  });
}

/** The day-before reminder with its buttons (Confirm I'm coming, Change time, Cancel); never sent once the visit began. */
export function enqueueReminderWhatsApp(tx: DbOrTx, v: VisitWhatsApp): Promise<number | null> {
  const { parentName, school, date, time } = visitParts(v);
  const children = v.childNames.map(oneLine).filter(Boolean).join(', ') || YOUR_CHILD[v.locale];
  return enqueueWhatsApp(tx, {
    ...base(v),
    dedupeKey: `booking:${v.paymentId}:reminder:${v.start.toISOString()}`,
    kind: 'visit_reminder',
    input: { parentName, children, school, date, time, manageUrl: v.manageUrl },
    sendBefore: v.start,
  });
}

export type OfferWhatsApp = OptInColumns & {
  offerId: number;
  locale: Locale;
  name: string;
  phone: string;
  school: string;
  start: Date;
  expiresAt: Date;
  offerUrl: string;
  now: Date;
};

/** A waitlist offer with "Let it pass"; never sent once the offer ended. */
export function enqueueOfferWhatsApp(tx: DbOrTx, o: OfferWhatsApp): Promise<number | null> {
  const L = mailLanguage(o.locale);
  return enqueueWhatsApp(tx, {
    dedupeKey: `offer:${o.offerId}:offer`,
    kind: 'waitlist_offer',
    locale: o.locale,
    to: o.phone,
    waitlistOfferId: o.offerId,
    now: o.now,
    optIn: optInOf(o),
    sendBefore: o.expiresAt,
    input: {
      parentName: oneLine(o.name),
      school: L.school(o.school),
      date: L.date(o.start),
      time: L.time(o.start),
      heldUntil: `${L.time(o.expiresAt)}, ${L.date(o.expiresAt)}`,
      offerUrl: o.offerUrl,
    },
  });
}
