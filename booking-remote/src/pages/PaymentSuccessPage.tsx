import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  BOOKING_STORAGE_KEY,
  PaymentFailureCode,
  SUCCESS_MAX_RETRIES,
  SUCCESS_POLL_MS,
  formatRM,
  schoolName,
  slotStartMs,
  type PaymentStatusResult,
} from 'shared-api';
import { changeTerms } from 'shared-api/change-terms';
import { Button, Spinner, createGlobalStyle, styled, useCatalog, useToast } from 'shared-ui';
import { useTermsText } from '../lib/changeTerms';
import { Email } from 'shared-ui/text';
import { WHAT_TO_BRING_IDS, contractCatalog } from '../lib/contract-catalog';
import { useGetPaymentStatusByReferenceQuery, useGetPaymentStatusQuery } from '../lib/paymentStatusApi';
import { browserNavigation } from '../lib/browserNavigation';
import {
  Actions,
  Details,
  ELEMENT,
  LinkButton,
  Sentence,
  RegistrationNotice,
  ResultPanel,
  resultCatalog,
  ChildrenPaid,
  calendarVisitOf,
  googleCalendarUrl,
  icsFile,
  visitWhen,
  EmailNotice,
  VisitBlock,
  visitTitle,
} from '../features/payment-result';
import { ManageLinkNotice } from '../features/manage-booking/link';
import { paymentKeyFor } from '../lib/paymentKeys';
import { SchoolPlaceRows } from '../lib/school-place/SchoolPlaceRows';

// A printed success page is a clean receipt: no page frame, no buttons, no colours.
const PrintStyle = createGlobalStyle`
  @media print {
    header, nav, footer, [data-print='hide'] { display: none !important; }
    body { background: #fff !important; color: #000 !important; }
    [data-print='receipt'] { border: none !important; margin: 0 !important; max-width: none !important; }
    a[href^='http']::after { content: ' (' attr(href) ')'; font-size: 0.8em; }
  }
`;

// Kept for support and the printout, but quiet: parents quote the reference.
const Quiet = styled.p`
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

type Outcome = { kind: 'verifying' } | { kind: 'success'; result: PaymentStatusResult } | { kind: 'error' };

type TypedChild = { slotId: unknown; name: string; year?: string };

/** The child as typed in this browser's booking draft (the status answer does not carry it), or null. */
function typedChild(): TypedChild | null {
  try {
    const booking = (JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) ?? 'null') as { currentBooking?: Record<string, unknown> | null } | null)?.currentBooking;
    const name = booking?.childName;
    if (typeof name !== 'string' || !name) return null;
    const year = booking?.childYear;
    return { slotId: (booking?.slot as { id?: unknown } | undefined)?.id, name, year: typeof year === 'string' && year ? year : undefined };
  } catch {
    return null;
  }
}

/**
 * `/payment/success?reference=` (or `?payment_id=`): verifies with the server, then shows the receipt. The browser that
 * paid sends the payment's key and gets the whole receipt; any other (a forwarded or bookmarked URL) gets the booking
 * without the payment ID, the email address or the manage link.
 */
export default function PaymentSuccessPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const { t, locale } = useCatalog(resultCatalog);
  // The what-to-bring items and the calendar texts: the catalogue the server's mails use too.
  const { t: sharedText } = useCatalog(contractCatalog);
  const termsText = useTermsText();
  const [params] = useSearchParams();
  const reference = params.get('reference');
  const paymentId = params.get('payment_id');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'verifying' });
  const [attempts, setAttempts] = useState(0);
  const evaluated = useRef<string | undefined>(undefined);
  const [calendar, setCalendar] = useState<{ googleUrl: string | null; ics: string | null }>({ googleUrl: null, ics: null });
  // The key of the payment, when this browser started it: kept apart from the stored booking, which the receipt clears.
  const [key] = useState(() => paymentKeyFor(reference ?? paymentId));
  // Read before the receipt clears the draft: the visit's heading names the child.
  const [draftChild] = useState(typedChild);

  // Skipping (not a zero interval) is what stops RTK Query's polling; the result is kept in `outcome`.
  const done = outcome.kind !== 'verifying';
  const byReference = useGetPaymentStatusByReferenceQuery({ id: reference ?? '', key }, { skip: done || !reference, pollingInterval: SUCCESS_POLL_MS });
  const byId = useGetPaymentStatusQuery({ id: paymentId ?? '', key }, { skip: done || Boolean(reference) || !paymentId, pollingInterval: SUCCESS_POLL_MS });
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
    } else if (result.payment.status === 'failed' || result.payment.status === 'cancelled') {
      const key = reference ? 'reference' : 'payment_id';
      // A code the failure page names in its own words: cancelled (nothing charged) is not a failure.
      const code = result.payment.status === 'cancelled' ? PaymentFailureCode.cancelled : PaymentFailureCode.failed;
      navigate(`/payment/failure?${new URLSearchParams({ [key]: (reference ?? paymentId) as string, error: code }).toString()}`, { replace: true });
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
    const visit = calendarVisitOf(outcome.result);
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

  const { result } = outcome;
  const { payment, booking } = result;
  const when = visitWhen(booking.date, booking.startTime, booking.endTime, locale);
  const { googleUrl, ics } = calendar;

  // The refund and change terms of this visit, counted from the earliest time it had (the paying browser is told it).
  const start = slotStartMs(booking.date.slice(0, 10), booking.startTime);
  const terms = changeTerms({ start, refundFrom: (result.owner && result.booking.refundFrom) || start, now: Date.now() });
  // Only for this booking's own browser: the child the server has (or, from an older server, the one typed for this very slot).
  const child = !result.owner
    ? null
    : result.booking.childName
      ? { name: result.booking.childName, year: result.booking.childYear ?? undefined }
      : draftChild?.slotId === result.booking.slotId
        ? draftChild
        : null;

  return (
    <ResultPanel aria-labelledby="success-title" data-print="receipt">
      <PrintStyle />
      {/* The visit leads (whose, where, when); the payment's facts follow it. */}
      <VisitBlock>
        <h1 id="success-title">
          {visitTitle(child, booking.selectedSchool, t, locale)}
        </h1>
        <Details>
          <dt>{t('school')}</dt>
          <dd>{schoolName(booking.selectedSchool, locale)}</dd>
          <SchoolPlaceRows school={booking.selectedSchool} />
          <dt>{t('bookingDate')}</dt>
          <dd>{when.day}</dd>
          <dt>{t('time')}</dt>
          <dd>{t('timeGmt', { time: when.time })}</dd>
        </Details>
      </VisitBlock>
      <h2>{t('success.title')}</h2>
      <Details>
        <dt>{t('reference')}</dt>
        <dd>
          <strong>{payment.reference}</strong>
        </dd>
      </Details>
      <p>
        <strong>{t('success.amountPaid', { amount: formatRM(payment.amount, locale) })}</strong>
      </p>
      {result.owner && result.booking.children && <ChildrenPaid children={result.booking.children} />}
      {(googleUrl || ics) && (
        <section aria-labelledby="success-calendar-title" data-print="hide">
          <h2 id="success-calendar-title">{t('calendar.title')}</h2>
          <Actions>
            {/* What a parent does next: put the visit in their calendar (the page's one filled action). */}
            {googleUrl && (
              <LinkButton href={googleUrl} target="_blank" rel="noopener noreferrer" $primary>
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
      <ManageLinkNotice paymentId={result.owner ? result.payment.id : null}>
        <p>{termsText(terms)}</p>
      </ManageLinkNotice>
      {result.owner ? (
        <EmailNotice
          emailStatus={result.emailStatus}
          emailTimeouts={result.emailTimeouts}
          texts={{
            sent: (
              <Sentence text={t('success.emailSent', { email: ELEMENT })}>
                <Email address={result.booking.visitorEmail} />
              </Sentence>
            ),
            // Right after the gateway's callback the mail is queued in the outbox, not yet handed to SMTP.
            pending: (
              <Sentence text={t('success.emailPending', { email: ELEMENT })}>
                <Email address={result.booking.visitorEmail} />
              </Sentence>
            ),
          }}
        />
      ) : (
        <p role="status">{t('success.otherDevice')}</p>
      )}
      <h2>{t('whatToBring')}</h2>
      <ul>
        {WHAT_TO_BRING_IDS.map((id) => (
          <li key={id}>{sharedText(id)}</li>
        ))}
      </ul>
      <RegistrationNotice />
      <Actions data-print="hide">
        <Button variant="secondary" onClick={() => browserNavigation.print()}>
          {t('print')}
        </Button>
        <Button variant="secondary" onClick={() => navigate('/')}>
          {t('backHome')}
        </Button>
      </Actions>
      {result.owner && (
        <Quiet>
          <span>{t('paymentId')}</span> <span>{result.payment.id}</span>
        </Quiet>
      )}
    </ResultPanel>
  );
}
