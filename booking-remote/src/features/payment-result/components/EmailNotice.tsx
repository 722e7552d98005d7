import type { EmailStatus } from 'shared-api';

export type EmailTimeouts = { visitorEmailTimeout?: boolean; adminEmailTimeout?: boolean };

const emailMessages: Record<EmailStatus, string> = {
  sent: 'A confirmation email with your booking details and the list of documents to bring will arrive in your inbox.',
  timeout: 'Your booking is confirmed. The confirmation email may be delayed.',
  failed:
    'Your booking is confirmed, but we could not send the confirmation email. Please check your email (including the spam folder) or contact the school if nothing arrives within 24 hours.',
  pending: 'Your confirmation email will be sent shortly.',
};

type Props = {
  emailStatus?: EmailStatus;
  emailTimeouts?: EmailTimeouts;
  /** Texts that replace the generic ones (the success page names the visitor's address). */
  texts?: Partial<Record<EmailStatus, string>>;
};

/** What happened to the confirmation emails (spec /thankyou), shown wherever a booking is confirmed. */
export function EmailNotice({ emailStatus = 'sent', emailTimeouts, texts }: Props) {
  const text = texts?.[emailStatus] ?? emailMessages[emailStatus] ?? emailMessages.sent;
  return (
    <>
      <p role="status">{text}</p>
      {(emailTimeouts?.visitorEmailTimeout || emailTimeouts?.adminEmailTimeout) && (
        <ul>
          {emailTimeouts.visitorEmailTimeout && <li>Your confirmation email may be delayed.</li>}
          {emailTimeouts.adminEmailTimeout && <li>School administrator notification may be delayed.</li>}
        </ul>
      )}
    </>
  );
}
