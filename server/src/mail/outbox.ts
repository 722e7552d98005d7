import { asc, eq } from 'drizzle-orm';
import type { EmailStatus } from 'shared-api/contract';
import type { DbOrTx } from '../db/connection';
import { mailOutbox, type MailRow } from '../payments/tables';
import { renderAdminNotification, renderVisitorConfirmation, type BookingMailInput } from './templates';

export type MailAddresses = { adminNotifyEmail: string; mailFrom: string };

const domainOf = (address: string) => /@([^>\s]+)>?\s*$/.exec(address)?.[1] ?? 'booking.local';

/**
 * Both booking messages, rendered now and written in the caller's transaction (the one that books the slot),
 * so a booking never commits without its mail and a rolled-back one leaves none. A repeat is ignored.
 */
export async function enqueueBookingMails(tx: DbOrTx, input: BookingMailInput, addresses: MailAddresses): Promise<void> {
  const domain = domainOf(addresses.mailFrom);
  const visitor = renderVisitorConfirmation(input, addresses.mailFrom.match(/<([^>]+)>/)?.[1] ?? addresses.mailFrom);
  const admin = renderAdminNotification(input);
  await tx
    .insert(mailOutbox)
    .values([
      {
        paymentId: input.paymentId,
        kind: 'visitor_confirmation',
        recipient: input.visitorEmail,
        subject: visitor.subject,
        textBody: visitor.text,
        htmlBody: visitor.html,
        ics: visitor.ics,
        messageId: `<${input.reference}.visitor@${domain}>`,
      },
      {
        paymentId: input.paymentId,
        kind: 'admin_notification',
        recipient: addresses.adminNotifyEmail,
        subject: admin.subject,
        textBody: admin.text,
        htmlBody: admin.html,
        ics: null,
        messageId: `<${input.reference}.admin@${domain}>`,
      },
    ])
    .onConflictDoNothing();
}

export const mailsForPayment = (db: DbOrTx, paymentId: string): Promise<MailRow[]> =>
  db.select().from(mailOutbox).where(eq(mailOutbox.paymentId, paymentId)).orderBy(asc(mailOutbox.id));

/** What the thank-you page shows: sent when both left, failed when one gave up, timeout when one is retrying after a timeout. */
export function summariseMail(rows: MailRow[]): { emailStatus: EmailStatus; emailTimeouts: { visitorEmailTimeout: boolean; adminEmailTimeout: boolean } } {
  const timedOut = (kind: MailRow['kind']) => rows.some((r) => r.kind === kind && r.status !== 'sent' && r.timedOut);
  const emailTimeouts = { visitorEmailTimeout: timedOut('visitor_confirmation'), adminEmailTimeout: timedOut('admin_notification') };
  let emailStatus: EmailStatus = 'pending';
  if (rows.length > 0 && rows.every((r) => r.status === 'sent')) emailStatus = 'sent';
  else if (rows.some((r) => r.status === 'failed')) emailStatus = 'failed';
  else if (emailTimeouts.visitorEmailTimeout || emailTimeouts.adminEmailTimeout) emailStatus = 'timeout';
  return { emailStatus, emailTimeouts };
}
