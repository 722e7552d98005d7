import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { BOOKING_STORAGE_KEY, brand } from 'shared-api';
import { Button } from 'shared-ui';
import { Actions, Details, LinkButton, ResultPanel } from '../features/payment-result';

/** The support email, with subject 'Payment Issue' and the payment ID in the body. */
export function supportMailto(paymentId: string): string {
  const subject = encodeURIComponent('Payment Issue');
  const body = encodeURIComponent(`Hello,\n\nMy payment could not be processed.\nPayment ID: ${paymentId}\n\nThank you.`);
  return `mailto:${brand.supportEmail}?subject=${subject}&body=${body}`;
}

/** `/payment/failure?error=&payment_id=`: the payment did not go through and the slot is free again. */
export default function PaymentFailurePage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const error = params.get('error');
  const paymentId = params.get('payment_id') || params.get('reference') || 'N/A';

  // The slot is released and this attempt is over: the home page must not point back to it.
  useEffect(() => window.localStorage.removeItem(BOOKING_STORAGE_KEY), []);

  return (
    <ResultPanel aria-labelledby="failure-title">
      <h1 id="failure-title">Payment Failed</h1>
      <p>We could not process your payment, and the slot has been released.</p>
      {error && (
        <p role="alert">
          <strong>Error:</strong> {error}
        </p>
      )}
      <h2>This can happen when</h2>
      <ul>
        <li>the payment was declined by your bank;</li>
        <li>there was a technical issue with the payment gateway;</li>
        <li>the payment session expired.</li>
      </ul>
      <Details>
        <dt>Payment ID</dt>
        <dd>{paymentId}</dd>
      </Details>
      <Actions>
        <Button onClick={() => navigate('/')}>Try Again</Button>
        <LinkButton href={supportMailto(paymentId)}>Contact Support</LinkButton>
      </Actions>
    </ResultPanel>
  );
}
