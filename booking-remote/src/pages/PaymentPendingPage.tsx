import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PaymentFailureCode, PENDING_COUNTDOWN_SECONDS, PENDING_POLL_MS, SESSION_TICK_MS } from 'shared-api';
import { Button, Spinner, VisuallyHidden, useCatalog, useToast } from 'shared-ui';
import { useGetPaymentStatusQuery } from '../lib/paymentStatusApi';
import { Actions, ELEMENT, ResultPanel, Sentence, failurePath, resultCatalog } from '../features/payment-result';

const mmss = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** `/payment/pending?payment_id=`: polls every 5 s for up to 5 minutes, then admits it is slow. */
export default function PaymentPendingPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useCatalog(resultCatalog);
  const [params] = useSearchParams();
  const paymentId = params.get('payment_id') ?? '';
  const [secondsLeft, setSecondsLeft] = useState(PENDING_COUNTDOWN_SECONDS);
  // Only the status is read here, which anyone may know: the payment's key is not sent.
  const status = useGetPaymentStatusQuery({ id: paymentId, key: null }, { skip: !paymentId, pollingInterval: PENDING_POLL_MS });
  const slow = secondsLeft === 0;

  useEffect(() => {
    if (!paymentId) {
      toast.error(t('missingReference'));
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
    if (value === 'completed') navigate(`/payment/success?payment_id=${encodeURIComponent(paymentId)}`, { replace: true });
    // A code, not the spec's words: the failure page names it in its own language.
    else if (value === 'failed') navigate(failurePath(paymentId, PaymentFailureCode.failed), { replace: true });
    // Cancelled on the gateway: the failure page says nothing was charged and offers the time again.
    else if (value === 'cancelled') navigate(failurePath(paymentId, PaymentFailureCode.cancelled), { replace: true });
  }, [value, paymentId, navigate]);

  if (!paymentId) return null;

  if (slow) {
    return (
      <ResultPanel aria-labelledby="pending-slow-title">
        <h1 id="pending-slow-title">{t('pending.slowTitle')}</h1>
        <p role="status">
          <Sentence text={t('pending.slowText', { status: ELEMENT })}>
            <strong>{t('pending.stillProcessing')}</strong>
          </Sentence>
        </p>
        <Actions>
          <Button onClick={() => void status.refetch()} loading={status.isFetching}>
            {t('pending.refresh')}
          </Button>
          <Button variant="secondary" onClick={() => navigate('/')}>
            {t('backHome')}
          </Button>
        </Actions>
      </ResultPanel>
    );
  }

  return (
    <ResultPanel aria-labelledby="pending-title" aria-busy="true">
      <h1 id="pending-title">{t('pending.title')}</h1>
      <Spinner label={t('pending.label')} />
      <p>{t('pending.keepOpen')}</p>
      <p>
        <Sentence text={t('pending.timeRemaining', { time: ELEMENT })}>
          <span aria-hidden="true">{mmss(secondsLeft)}</span>
          {/* Read as whole minutes: a per-second reading would drown everything else out. */}
          <VisuallyHidden>{t('pending.minutesLeft', { count: Math.ceil(secondsLeft / 60) })}</VisuallyHidden>
        </Sentence>
      </p>
    </ResultPanel>
  );
}
