import { asc, eq } from 'drizzle-orm';
import type { EmailStatus } from 'shared-api/contract';
import type { DbOrTx } from '../db/connection';
import { mailOutbox, type MailRow } from '../payments/tables';
import {
  renderAdminNotification,
  renderAdminRefund,
  renderVisitorConfirmation,
  renderVisitorRefund,
  type BookingMailInput,
  type RefundMailInput,
  type RenderedMail,
} from './templates';

export type MailAddresses = { adminNotifyEmail: string; mailFrom: string };

type MailKind = MailRow['kind'];
const VISITOR_KINDS: MailKind[] = ['visitor_confirmation', 'visitor_refund'];
const ADMIN_KINDS: MailKind[] = ['admin_notification', 'admin_refund'];
/** The Message-ID's local part after the reference (fixed per message, so a resent one can be recognised). */
const MESSAGE_TAG: Record<MailKind, string> = {
  visitor_confirmation: 'visitor',
  admin_notification: 'admin',
  visitor_refund: 'visitor-refund',
  admin_refund: 'admin-refund',
};

const domainOf = (address: string) => /@([^>\s]+)>?\s*$/.exec(address)?.[1] ?? 'booking.local';
const addressOf = (mailFrom: string) => mailFrom.match(/<([^>]+)>/)?.[1] ?? mailFrom;

/** The visitor's and the admin's message for one payment, in the caller's transaction; a repeat is ignored (one per kind). */
async function enqueuePair(
  tx: DbOrTx,
  input: BookingMailInput,
  addresses: MailAddresses,
  visitor: { kind: MailKind; mail: RenderedMail },
  admin: { kind: MailKind; mail: RenderedMail },
): Promise<void> {
  const domain = domainOf(addresses.mailFrom);
  const rowOf = (kind: MailKind, recipient: string, mail: RenderedMail) => ({
    paymentId: input.paymentId,
    kind,
    recipient,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
    ics: mail.ics,
    messageId: `<${input.reference}.${MESSAGE_TAG[kind]}@${domain}>`,
  });
  await tx
    .insert(mailOutbox)
    .values([rowOf(visitor.kind, input.visitorEmail, visitor.mail), rowOf(admin.kind, addresses.adminNotifyEmail, admin.mail)])
    .onConflictDoNothing();
}

/**
 * Both booking messages, rendered now and written in the caller's transaction (the one that books the slot),
 * so a booking never commits without its mail and a rolled-back one leaves none. A repeat is ignored.
 */
export async function enqueueBookingMails(tx: DbOrTx, input: BookingMailInput, addresses: MailAddresses): Promise<void> {
  await enqueuePair(
    tx,
    input,
    addresses,
    { kind: 'visitor_confirmation', mail: renderVisitorConfirmation(input, addressOf(addresses.mailFrom)) },
    { kind: 'admin_notification', mail: renderAdminNotification(input) },
  );
}

/** Paid but not booked: the parent's and the admin's refund messages, in the transaction that marks it refund_pending. */
export async function enqueueRefundMails(tx: DbOrTx, input: RefundMailInput, addresses: MailAddresses): Promise<void> {
  await enqueuePair(
    tx,
    input,
    addresses,
    { kind: 'visitor_refund', mail: renderVisitorRefund(input) },
    { kind: 'admin_refund', mail: renderAdminRefund(input) },
  );
}

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
