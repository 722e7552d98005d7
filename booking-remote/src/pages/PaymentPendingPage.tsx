import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PENDING_COUNTDOWN_SECONDS, PENDING_POLL_MS, SESSION_TICK_MS } from 'shared-api';
import { Button, Spinner, VisuallyHidden, useToast } from 'shared-ui';
import { useGetPaymentStatusQuery } from '../lib/paymentStatusApi';
import { Actions, ResultPanel } from '../features/payment-result';

const mmss = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** `/payment/pending?payment_id=`: polls every 5 s for up to 5 minutes, then admits it is slow. */
export default function PaymentPendingPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const [params] = useSearchParams();
  const paymentId = params.get('payment_id') ?? '';
  const [secondsLeft, setSecondsLeft] = useState(PENDING_COUNTDOWN_SECONDS);
  const status = useGetPaymentStatusQuery(paymentId, { skip: !paymentId, pollingInterval: PENDING_POLL_MS });
  const slow = secondsLeft === 0;

  useEffect(() => {
    if (!paymentId) {
      toast.error('Missing payment reference');
      navigate('/', { replace: true });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  useEffect(() => {
    if (slow) return;
    const id = setInterval(() => setSecondsLeft((s) => Math.max(0, s - 1)), SESSION_TICK_MS);
    return () => clearInterval(id);
  }, [slow]);

  const value = status.data?.payment.status;
  useEffect(() => {
    const id = encodeURIComponent(paymentId);
    if (value === 'completed') navigate(`/payment/success?payment_id=${id}`, { replace: true });
    else if (value === 'failed') navigate(`/payment/failure?payment_id=${id}&error=${encodeURIComponent('Payment failed')}`, { replace: true });
  }, [value, paymentId, navigate]);

  if (!paymentId) return null;

  if (slow) {
    return (
      <ResultPanel aria-labelledby="pending-slow-title">
        <h1 id="pending-slow-title">Payment Taking Longer Than Expected</h1>
        <p role="status">
          <strong>Still Processing</strong>: your bank has not confirmed the payment yet. We keep checking; you can also refresh the
          status now.
        </p>
        <Actions>
          <Button onClick={() => void status.refetch()} loading={status.isFetching}>
            Refresh Status
          </Button>
          <Button variant="secondary" onClick={() => navigate('/')}>
            Back to Home
          </Button>
        </Actions>
      </ResultPanel>
    );
  }

  return (
    <ResultPanel aria-labelledby="pending-title" aria-busy="true">
      <h1 id="pending-title">Processing Payment</h1>
      <Spinner label="Waiting for the payment result" />
      <p>Please keep this page open while we wait for your bank to confirm the payment.</p>
      <p>
        Time remaining: <span aria-hidden="true">{mmss(secondsLeft)}</span>
        {/* Read as whole minutes: a per-second reading would drown everything else out. */}
        <VisuallyHidden>{`${Math.ceil(secondsLeft / 60)} minutes or less`}</VisuallyHidden>
      </p>
    </ResultPanel>
  );
}
