import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { BOOKING_STORAGE_KEY, SUCCESS_MAX_RETRIES, SUCCESS_POLL_MS, formatRM, schoolName, type PaymentStatusResult } from 'shared-api';
import { Button, Spinner, createGlobalStyle, useCatalog, useToast } from 'shared-ui';
import { WHAT_TO_BRING_IDS, contractCatalog } from '../lib/contract-catalog';
import { useGetPaymentStatusByReferenceQuery, useGetPaymentStatusQuery } from '../lib/paymentStatusApi';
import { browserNavigation } from '../lib/browserNavigation';
import {
  Actions,
  Details,
  LinkButton,
  RegistrationNotice,
  ResultPanel,
  resultCatalog,
  googleCalendarUrl,
  icsFile,
  visitWhen,
  EmailNotice,
  type CalendarVisit,
} from '../features/payment-result';
import { ManageLinkNotice, storedPaymentId } from '../features/manage-booking/link';

// A printed success page is a clean receipt: no page frame, no buttons, no colours.
const PrintStyle = createGlobalStyle`
  @media print {
    header, nav, footer, [data-print='hide'] { display: none !important; }
    body { background: #fff !important; color: #000 !important; }
    [data-print='receipt'] { border: none !important; margin: 0 !important; max-width: none !important; }
    a[href^='http']::after { content: ' (' attr(href) ')'; font-size: 0.8em; }
  }
`;

type Outcome = { kind: 'verifying' } | { kind: 'success'; result: PaymentStatusResult } | { kind: 'error' };

const visitOf = ({ payment, booking }: PaymentStatusResult): CalendarVisit => ({
  date: booking.date.slice(0, 10),
  startTime: booking.startTime,
  endTime: booking.endTime,
  school: booking.selectedSchool,
  reference: payment.reference,
});

/** `/payment/success?reference=` (or `?payment_id=`): verifies with the server, then shows the receipt. */
export default function PaymentSuccessPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const { t, locale } = useCatalog(resultCatalog);
  // The what-to-bring items and the calendar texts: the catalogue the server's mails use too.
  const { t: sharedText } = useCatalog(contractCatalog);
  const [params] = useSearchParams();
  const reference = params.get('reference');
  const paymentId = params.get('payment_id');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'verifying' });
  const [attempts, setAttempts] = useState(0);
  const evaluated = useRef<string | undefined>(undefined);
  const [calendar, setCalendar] = useState<{ googleUrl: string | null; ics: string | null }>({ googleUrl: null, ics: null });
  // The payment this browser started, read before the receipt clears the stored booking: it proves ownership for the manage link.
  const [paidHere] = useState(storedPaymentId);

  // Skipping (not a zero interval) is what stops RTK Query's polling; the result is kept in `outcome`.
  const done = outcome.kind !== 'verifying';
  const byReference = useGetPaymentStatusByReferenceQuery(reference ?? '', { skip: done || !reference, pollingInterval: SUCCESS_POLL_MS });
  const byId = useGetPaymentStatusQuery(paymentId ?? '', { skip: done || Boolean(reference) || !paymentId, pollingInterval: SUCCESS_POLL_MS });
  const query = reference ? byReference : byId;

  useEffect(() => {
    if (!reference && !paymentId) {
      toast.error(t('missingReference'));
      navigate('/', { replace: true });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  // Each finished request is one attempt: completed+confirmed shows the receipt, failed leaves, the rest retries.
  useEffect(() => {
    if (outcome.kind !== 'verifying' || query.isFetching || !query.requestId || evaluated.current === query.requestId) return;
    evaluated.current = query.requestId;
    const attempt = attempts + 1;
    setAttempts(attempt);
    if (query.isError) {
      if (attempt >= SUCCESS_MAX_RETRIES) {
        setOutcome({ kind: 'error' });
        toast.error(t('verifyFailedToast'));
      }
      return;
    }
    const result = query.data;
    if (!result) return;
    if (result.payment.status === 'completed' && result.booking.confirmed) {
      window.localStorage.removeItem(BOOKING_STORAGE_KEY);
      setOutcome({ kind: 'success', result });
    } else if (result.payment.status === 'failed') {
      const key = reference ? 'reference' : 'payment_id';
      navigate(`/payment/failure?${key}=${encodeURIComponent((reference ?? paymentId) as string)}`, { replace: true });
    } else if (attempt >= SUCCESS_MAX_RETRIES) {
      setOutcome({ kind: 'error' });
      toast.error(t('verifyTimeoutToast'));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- evaluate each finished request once
  }, [query.requestId, query.isFetching]);

  // The calendar builders are a chunk of their own, fetched once the receipt is shown; the event speaks the page's language.
  useEffect(() => {
    if (outcome.kind !== 'success') return;
    let shown = true;
    const visit = visitOf(outcome.result);
    const language = { locale, translate: sharedText };
    void Promise.all([googleCalendarUrl(visit, language), icsFile(visit, Date.now(), language)]).then(
      ([googleUrl, ics]) => shown && setCalendar({ googleUrl, ics }),
    );
    return () => {
      shown = false;
    };
  }, [outcome, locale, sharedText]);

  if (!reference && !paymentId) return null;

  if (outcome.kind === 'verifying') {
    return (
      <ResultPanel aria-labelledby="verify-title" aria-busy="true">
        <h1 id="verify-title">{t('verifying.title')}</h1>
        <Spinner label={t('verifying.label')} />
        <p role="status">{t('verifying.wait', { attempt: Math.min(attempts + 1, SUCCESS_MAX_RETRIES), max: SUCCESS_MAX_RETRIES })}</p>
      </ResultPanel>
    );
  }

  if (outcome.kind === 'error') {
    return (
      <ResultPanel aria-labelledby="verify-failed-title">
        <h1 id="verify-failed-title">{t('verifyFailed.title')}</h1>
        <p role="alert">{t('verifyFailed.text')}</p>
        <Actions>
          <Button variant="secondary" onClick={() => navigate('/')}>
            {t('backHome')}
          </Button>
          <Button onClick={() => browserNavigation.reload()}>{t('tryAgain')}</Button>
        </Actions>
      </ResultPanel>
    );
  }

  const { payment, booking } = outcome.result;
  const when = visitWhen(booking.date, booking.startTime, booking.endTime, locale);
  const { googleUrl, ics } = calendar;
  // Only for the payment on this receipt (a stored id of another payment asks for nothing).
  const manageable = paidHere !== null && paidHere === payment.id ? paidHere : null;

  return (
    <ResultPanel aria-labelledby="success-title" data-print="receipt">
      <PrintStyle />
      <h1 id="success-title">{t('success.title')}</h1>
      <Details>
        <dt>{t('paymentId')}</dt>
        <dd>{payment.id}</dd>
        <dt>{t('reference')}</dt>
        <dd>{payment.reference}</dd>
        <dt>{t('bookingDate')}</dt>
        <dd>{when.day}</dd>
        <dt>{t('time')}</dt>
        <dd>{t('timeGmt', { time: when.time })}</dd>
        <dt>{t('school')}</dt>
        <dd>{schoolName(booking.selectedSchool, locale)}</dd>
      </Details>
      <p>
        <strong>{t('success.amountPaid', { amount: formatRM(payment.amount, locale) })}</strong>
      </p>
      <EmailNotice
        emailStatus={outcome.result.emailStatus}
        emailTimeouts={outcome.result.emailTimeouts}
        texts={{
          sent: t('success.emailSent', { email: booking.visitorEmail }),
          // Right after the gateway's callback the mail is queued in the outbox, not yet handed to SMTP.
          pending: t('success.emailPending', { email: booking.visitorEmail }),
        }}
      />
      <h2>{t('whatToBring')}</h2>
      <ul>
        {WHAT_TO_BRING_IDS.map((id) => (
          <li key={id}>{sharedText(id)}</li>
        ))}
      </ul>
      <RegistrationNotice />
      {(googleUrl || ics) && (
        <section aria-label={t('calendar.title')} data-print="hide">
          <h2>{t('calendar.title')}</h2>
          <Actions>
            {googleUrl && (
              <LinkButton href={googleUrl} target="_blank" rel="noopener noreferrer">
                {t('calendar.google')}
              </LinkButton>
            )}
            {ics && (
              <LinkButton href={`data:text/calendar;charset=utf-8,${encodeURIComponent(ics)}`} download="assessment-visit.ics">
                {t('calendar.ics')}
              </LinkButton>
            )}
          </Actions>
        </section>
      )}
      <ManageLinkNotice paymentId={manageable} />
      <Actions data-print="hide">
        <Button variant="secondary" onClick={() => navigate('/')}>
          {t('backHome')}
        </Button>
        <Button onClick={() => browserNavigation.print()}>{t('print')}</Button>
      </Actions>
    </ResultPanel>
  );
}
