import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { BOOKING_STORAGE_KEY, brand } from 'shared-api';
import { Button, useCatalog } from 'shared-ui';
import { Actions, Details, ELEMENT, LinkButton, ResultPanel, Sentence, resultCatalog } from '../features/payment-result';

/**
 * The support email, with subject 'Payment Issue' and the payment ID in the body. In English whatever the page's
 * language: it is written to the school's staff, whose side is English.
 */
export function supportMailto(paymentId: string): string {
  const subject = encodeURIComponent('Payment Issue');
  const body = encodeURIComponent(`Hello,\n\nMy payment could not be processed.\nPayment ID: ${paymentId}\n\nThank you.`);
  return `mailto:${brand.supportEmail}?subject=${subject}&body=${body}`;
}

/** The error the pending page hands over when the bank refused (the gateway's own words are shown as they come). */
const PAYMENT_FAILED = 'Payment failed';

/** `/payment/failure?error=&payment_id=`: the payment did not go through and the slot is free again. */
export default function PaymentFailurePage() {
  const navigate = useNavigate();
  const { t } = useCatalog(resultCatalog);
  const [params] = useSearchParams();
  const error = params.get('error');
  const givenId = params.get('payment_id') || params.get('reference');

  // The slot is released and this attempt is over: the home page must not point back to it.
  useEffect(() => window.localStorage.removeItem(BOOKING_STORAGE_KEY), []);

  return (
    <ResultPanel aria-labelledby="failure-title">
      <h1 id="failure-title">{t('failure.title')}</h1>
      <p>{t('failure.text')}</p>
      {error && (
        <p role="alert">
          <Sentence text={t('failure.error', { label: ELEMENT, error: error === PAYMENT_FAILED ? t('failure.paymentFailed') : error })}>
            <strong>{t('failure.errorLabel')}</strong>
          </Sentence>
        </p>
      )}
      <h2>{t('failure.causes')}</h2>
      <ul>
        <li>{t('failure.declined')}</li>
        <li>{t('failure.gateway')}</li>
        <li>{t('failure.expired')}</li>
      </ul>
      <Details>
        <dt>{t('paymentId')}</dt>
        <dd>{givenId ?? t('failure.noPaymentId')}</dd>
      </Details>
      <Actions>
        <Button onClick={() => navigate('/')}>{t('tryAgain')}</Button>
        <LinkButton href={supportMailto(givenId ?? 'N/A')}>{t('failure.contactSupport')}</LinkButton>
      </Actions>
    </ResultPanel>
  );
}
