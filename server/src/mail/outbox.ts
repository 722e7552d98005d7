import { asc, eq } from 'drizzle-orm';
import type { EmailStatus } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';
import { mailOutbox, type MailRow } from './tables';
import {
  renderAdminCancelled,
  renderAdminChildCancelled,
  renderAdminChildMoved,
  renderVisitorChildMoved,
  renderAdminNotification,
  renderAdminRefund,
  renderAdminRescheduled,
  renderVisitorCancelled,
  renderVisitorChildCancelled,
  renderVisitorConfirmation,
  renderVisitorRefund,
  renderVisitorRescheduled,
  type BookingMailInput,
  type CancelMailInput,
  type ChildCancelMailInput,
  type ChildMoveMailInput,
  type RefundMailInput,
  type RescheduleMailInput,
} from './templates';
import type { RenderedMail } from './frame';

export type MailAddresses = { adminNotifyEmail: string; mailFrom: string };

type MailKind = MailRow['kind'];
const VISITOR_KINDS: MailKind[] = ['visitor_confirmation', 'visitor_refund', 'visitor_rescheduled', 'visitor_cancelled', 'visitor_reminder'];
const ADMIN_KINDS: MailKind[] = ['admin_notification', 'admin_refund', 'admin_rescheduled', 'admin_cancelled'];
/** The Message-ID's local part after the reference (fixed per message, so a resent one can be recognised). */
const MESSAGE_TAG: Record<MailKind, string> = {
  visitor_confirmation: 'visitor',
  admin_notification: 'admin',
  visitor_refund: 'visitor-refund',
  admin_refund: 'admin-refund',
  visitor_rescheduled: 'visitor-rescheduled',
  admin_rescheduled: 'admin-rescheduled',
  visitor_cancelled: 'visitor-cancelled',
  admin_cancelled: 'admin-cancelled',
  visitor_reminder: 'visitor-reminder',
  staff_password_reset: 'staff-password-reset',
  waitlist_confirm: 'waitlist-confirm',
  waitlist_joined: 'waitlist-joined',
  waitlist_offer: 'waitlist-offer',
  waitlist_entry_ended: 'waitlist-entry-ended',
  breach_notification: 'breach',
};

const domainOf = (address: string) => /@([^>\s]+)>?\s*$/.exec(address)?.[1] ?? 'booking.local';
const addressOf = (mailFrom: string) => mailFrom.match(/<([^>]+)>/)?.[1] ?? mailFrom;

/**
 * A message's Message-ID: `<REF.TAG@domain>`, or `<REF.TAG-SUFFIX@domain>` for kinds sent more than once per booking
 * (a reschedule's sequence, a reminder's visit). The outbox keeps one row per Message-ID, so a repeat is ignored.
 */
export const messageIdFor = (kind: MailKind, reference: string, mailFrom: string, suffix?: string | number): string =>
  `<${reference}.${MESSAGE_TAG[kind]}${suffix === undefined ? '' : `-${suffix}`}@${domainOf(mailFrom)}>`;

/**
 * The Message-ID a booking's later message answers, so a mail program shows it in one thread with the first: a parent's
 * move, cancel, refund or reminder under their confirmation, the admin's under their notice; null for a first message.
 */
export function threadRootOf(kind: MailKind, messageId: string): string | null {
  const root = VISITOR_KINDS.includes(kind) ? 'visitor_confirmation' : ADMIN_KINDS.includes(kind) ? 'admin_notification' : null;
  const parts = /^<([^.@]+)\.[^@]+@([^>]+)>$/.exec(messageId);
  if (!root || root === kind || !parts) return null;
  return `<${parts[1]}.${MESSAGE_TAG[root]}@${parts[2]}>`;
}

/** What one change of a booking mails: the parent's message and the admin's, each with its kind and its renderer. */
type MailPair<I extends BookingMailInput> = {
  visitor: MailKind;
  /** Gets the organiser's address for the calendar invitation (the messages without one ignore it). */
  renderVisitor: (input: I, organizerEmail: string) => RenderedMail;
  admin: MailKind;
  renderAdmin: (input: I) => RenderedMail;
  /** The Message-ID's suffix, for kinds sent more than once per booking (a move's or a cancel's invitation sequence). */
  suffix?: (input: I) => number | string;
};

/**
 * The enqueue function of a pair: both messages rendered now and written in the caller's transaction (the one that
 * makes the change they tell of), so a change never commits without its mail and a rolled-back one leaves none. A
 * repeat (same Message-ID) is ignored.
 */
const enqueuePair =
  <I extends BookingMailInput>(pair: MailPair<I>) =>
  async (tx: DbOrTx, input: I, addresses: MailAddresses): Promise<void> => {
    const suffix = pair.suffix?.(input);
    const rowOf = (kind: MailKind, recipient: string, mail: RenderedMail) => ({
      paymentId: input.paymentId,
      kind,
      recipient,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      ics: mail.ics,
      messageId: messageIdFor(kind, input.reference, addresses.mailFrom, suffix),
      // A parent's message carries its language (Content-Language); the admin's has none.
      locale: mail.locale ?? null,
    });
    await tx
      .insert(mailOutbox)
      .values([
        rowOf(pair.visitor, input.visitorEmail, pair.renderVisitor(input, addressOf(addresses.mailFrom))),
        rowOf(pair.admin, addresses.adminNotifyEmail, pair.renderAdmin(input)),
      ])
      .onConflictDoNothing();
  };

/** A booking: the parent's confirmation (with the invitation) and the admin's notice, in the transaction that books the slot. */
export const enqueueBookingMails = enqueuePair<BookingMailInput>({
  visitor: 'visitor_confirmation',
  renderVisitor: renderVisitorConfirmation,
  admin: 'admin_notification',
  renderAdmin: renderAdminNotification,
});

/** Paid but not booked: the parent's and the admin's refund messages, in the transaction that marks it refund_pending. */
export const enqueueRefundMails = enqueuePair<RefundMailInput>({
  visitor: 'visitor_refund',
  renderVisitor: renderVisitorRefund,
  admin: 'admin_refund',
  renderAdmin: renderAdminRefund,
});

/** A move: the parent's message (updated invitation, new manage link) and the admin's, one pair per sequence. */
export const enqueueRescheduleMails = enqueuePair<RescheduleMailInput>({
  visitor: 'visitor_rescheduled',
  renderVisitor: renderVisitorRescheduled,
  admin: 'admin_rescheduled',
  renderAdmin: renderAdminRescheduled,
  suffix: (input) => input.sequence,
});

/** A cancel: the parent's message (calendar cancellation, refund or none) and the admin's, one pair per sequence. */
export const enqueueCancelMails = enqueuePair<CancelMailInput>({
  visitor: 'visitor_cancelled',
  renderVisitor: renderVisitorCancelled,
  admin: 'admin_cancelled',
  renderAdmin: renderAdminCancelled,
  suffix: (input) => input.sequence,
});

export const mailsForPayment = (db: DbOrTx, paymentId: string): Promise<MailRow[]> =>
  db.select().from(mailOutbox).where(eq(mailOutbox.paymentId, paymentId)).orderBy(asc(mailOutbox.id));

/**
 * What the result pages show for a payment's mails (booking or refund ones): sent when all left, failed when one gave
 * up, timeout when one is retrying after a timeout, else pending.
 */
export function summariseMail(rows: MailRow[]): { emailStatus: EmailStatus; emailTimeouts: { visitorEmailTimeout: boolean; adminEmailTimeout: boolean } } {
  const timedOut = (kinds: MailKind[]) => rows.some((r) => kinds.includes(r.kind) && r.status !== 'sent' && r.timedOut);
  const emailTimeouts = { visitorEmailTimeout: timedOut(VISITOR_KINDS), adminEmailTimeout: timedOut(ADMIN_KINDS) };
  let emailStatus: EmailStatus = 'pending';
  if (rows.length > 0 && rows.every((r) => r.status === 'sent')) emailStatus = 'sent';
  else if (rows.some((r) => r.status === 'failed')) emailStatus = 'failed';
  else if (emailTimeouts.visitorEmailTimeout || emailTimeouts.adminEmailTimeout) emailStatus = 'timeout';
  return { emailStatus, emailTimeouts };
}

/** One child of a booking of several cancelled (issue 37): both messages, apart per child (the booking's invitation stays). */
export const enqueueChildCancelMails = enqueuePair<ChildCancelMailInput>({
  visitor: 'visitor_cancelled',
  renderVisitor: renderVisitorChildCancelled,
  admin: 'admin_cancelled',
  renderAdmin: renderAdminChildCancelled,
  suffix: (input) => `child-${input.child.position}`,
});

/** One child of a booking of several moved by staff (issue 37): both messages, one pair per move (the booking's invitation stays). */
export const enqueueChildMoveMails = enqueuePair<ChildMoveMailInput>({
  visitor: 'visitor_rescheduled',
  renderVisitor: renderVisitorChildMoved,
  admin: 'admin_rescheduled',
  renderAdmin: renderAdminChildMoved,
  suffix: (input) => input.suffix,
});
