import { Link } from 'react-router-dom';
import { styled, useCatalog } from 'shared-ui';
import { Callout } from '../../../lib/callout';
import { noticeCatalog } from '../notice/i18n';
import { loadDraft } from '../utils/bookingDraft';

const Notice = styled(Callout)`
  a {
    display: inline-flex;
    align-items: center;
    min-height: ${({ theme }) => theme.tapTarget};
    color: ${({ theme }) => theme.colors.info};
    font-weight: ${({ theme }) => theme.fontWeights.bold};
  }
`;

/**
 * After a reload (the payment error's Retry) or a trip back from the gateway, a payment still in
 * progress in this browser is pointed to, rather than silently forgotten.
 */
export function PaymentInProgressNotice({ now = Date.now() }: { now?: number }) {
  const { t } = useCatalog(noticeCatalog);
  const { paymentSession, paymentStatus } = loadDraft();
  const id = paymentSession?.paymentId || paymentSession?.id;
  if (!id || (paymentStatus !== 'pending' && paymentStatus !== 'processing') || !(Date.parse(paymentSession?.expiresAt ?? '') > now)) return null;
  return (
    <Notice role="status">
      <p>
        {t('paymentInProgress')} <Link to={`/payment/pending?payment_id=${encodeURIComponent(id)}`}>{t('checkPaymentStatus')}</Link>
      </p>
    </Notice>
  );
}
