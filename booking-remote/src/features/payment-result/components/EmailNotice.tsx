import type { ReactNode } from 'react';
import type { EmailStatus } from 'shared-api';
import { useCatalog } from 'shared-ui';
import { resultCatalog } from '../i18n';

export type EmailTimeouts = { visitorEmailTimeout?: boolean; adminEmailTimeout?: boolean };

const emailMessages = {
  sent: 'email.sent',
  timeout: 'email.timeout',
  failed: 'email.failed',
  pending: 'email.pending',
} as const satisfies Record<EmailStatus, string>;

type Props = {
  emailStatus?: EmailStatus;
  emailTimeouts?: EmailTimeouts;
  /** Texts that replace the generic ones (the success page names the visitor's address). */
  texts?: Partial<Record<EmailStatus, ReactNode>>;
};

/** What happened to the confirmation emails (spec /thankyou), shown wherever a booking is confirmed. */
export function EmailNotice({ emailStatus = 'sent', emailTimeouts, texts }: Props) {
  const { t } = useCatalog(resultCatalog);
  const text = texts?.[emailStatus] ?? t(emailMessages[emailStatus] ?? emailMessages.sent);
  return (
    <>
      <p role="status">{text}</p>
      {(emailTimeouts?.visitorEmailTimeout || emailTimeouts?.adminEmailTimeout) && (
        <ul>
          {emailTimeouts.visitorEmailTimeout && <li>{t('email.visitorDelayed')}</li>}
          {emailTimeouts.adminEmailTimeout && <li>{t('email.adminDelayed')}</li>}
        </ul>
      )}
    </>
  );
}
