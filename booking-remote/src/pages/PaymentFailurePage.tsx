import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { BOOKING_STORAGE_KEY, brand, PAYMENT_ID_PATTERN, PaymentFailureCode, parseSlotTime, schoolName, type ConsentInput, type VisitorDetailsInput } from 'shared-api';
import { Button, Spinner, styled, useCatalog } from 'shared-ui';
import {
  Actions,
  Details,
  ELEMENT,
  LinkButton,
  ResultPanel,
  Sentence,
  failureMessageId,
  paymentIdShown,
  resultCatalog,
  visitWhen,
} from '../features/payment-result';
import { timetableApi } from '../features/timetable';
import { paymentKeyFor } from '../lib/paymentKeys';
import { useGetPaymentStatusByReferenceQuery, useGetPaymentStatusQuery } from '../lib/paymentStatusApi';
import { rebookState } from '../lib/rebook';
import { filterDisplayableSlots } from '../lib/slot-list/displayFilter';

// A payment id is one word: never broken inside, a little smaller so it fits a phone's width.
const PaymentId = styled.span`
  white-space: nowrap;
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Quiet = styled.p`
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

/**
 * The support email, with subject 'Payment Issue' and the payment ID in the body. In English whatever the page's
 * language: it is written to the school's staff, whose side is English.
 */
export function supportMailto(paymentId: string): string {
  const subject = encodeURIComponent('Payment Issue');
  const body = encodeURIComponent(`Hello,\n\nMy payment could not be processed.\nPayment ID: ${paymentId}\n\nThank you.`);
  return `mailto:${brand.supportEmail}?subject=${subject}&body=${body}`;
}

/**
 * `/payment/failure?error=&payment_id=`: the payment did not go through and the slot is free again. It shows only its
 * own words: a known `error=` code in the page's language, a payment id or reference of the server's shape; any other
 * text in the URL (anyone can send such a link) is left out.
 */
export default function PaymentFailurePage() {
  const { t } = useCatalog(resultCatalog);
  const [params] = useSearchParams();
  const error = failureMessageId(params.get('error'));
  const givenId = paymentIdShown(params.get('payment_id') || params.get('reference'));
  // What the parent typed and agreed to, kept for booking the same time again (read before the attempt is forgotten below).
  const [typed] = useState(typedAttempt);

  // The slot is released and this attempt is over: the home page must not point back to it.
  useEffect(() => window.localStorage.removeItem(BOOKING_STORAGE_KEY), []);

  if (params.get('error') === PaymentFailureCode.cancelled) return <PaymentCancelled givenId={givenId} typed={typed} />;

  return (
    <ResultPanel aria-labelledby="failure-title">
      <h1 id="failure-title">{t('failure.title')}</h1>
      <p>{t('failure.text')}</p>
      {error && (
        <p role="alert">
          <Sentence text={t('failure.error', { label: ELEMENT, error: t(error) })}>
            <strong>{t('failure.errorLabel')}</strong>
          </Sentence>
        </p>
      )}
      <TryAgain givenId={givenId} typed={typed} declined />
    </ResultPanel>
  );
}

/** The attempt in this browser: what the parent typed and the consent they gave, or null. */
type TypedAttempt = { details: Partial<VisitorDetailsInput>; consent: ConsentInput | null } | null;

function typedAttempt(): TypedAttempt {
  try {
    const draft = JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) ?? 'null') as {
      currentBooking?: Record<string, unknown> | null;
      consent?: ConsentInput | null;
    } | null;
    if (!draft?.currentBooking) return null;
    const { slot: _slot, fee: _fee, preferredPaymentMethod: _method, ...details } = draft.currentBooking as Partial<VisitorDetailsInput> & Record<string, unknown>;
    return { details, consent: draft.consent ?? null };
  } catch {
    return null;
  }
}

/** The time of the payment behind `givenId` and, once the payment is over, whether it is still free (undefined: asking). */
function useAttemptedVisit(givenId: string | null) {
  const byId = givenId !== null && PAYMENT_ID_PATTERN.test(givenId);
  const lookup = { id: givenId ?? '', key: paymentKeyFor(givenId) };
  const statusById = useGetPaymentStatusQuery(lookup, { skip: !givenId || !byId });
  const statusByReference = useGetPaymentStatusByReferenceQuery(lookup, { skip: !givenId || byId });
  const booking = (byId ? statusById : statusByReference).data?.booking;
  // Asked only once the payment is known as over: the status call is what lets the server release its hold.
  const slots = timetableApi.useGetPublicSlotsQuery(undefined, { skip: !booking, refetchOnMountOrArgChange: true });
  const free =
    booking && slots.data
      ? (filterDisplayableSlots(slots.data.slots, Date.now()).find((s) => s.date === booking.date.slice(0, 10) && s.startMinutes === parseSlotTime(booking.startTime)) ?? null)
      : undefined;
  return { booking, free, unknown: slots.isError };
}

/**
 * The visit the payment was for (school, date, time), whether it is still free, and the way on: the same time again
 * with what was typed and agreed to while it is free (the dialog opens on it), else another time. A declined payment
 * keeps the spec's causes, payment id and Contact Support.
 */
function TryAgain({ givenId, typed, declined = false }: { givenId: string | null; typed: TypedAttempt; declined?: boolean }) {
  const navigate = useNavigate();
  const { t, locale } = useCatalog(resultCatalog);
  const { booking, free, unknown } = useAttemptedVisit(givenId);
  const when = booking ? visitWhen(booking.date, booking.startTime, booking.endTime, locale) : null;
  const again = () =>
    free
      ? navigate('/', {
          state: rebookState({ slot: free, details: { ...typed?.details, selectedSchool: booking?.selectedSchool ?? typed?.details.selectedSchool }, consent: typed?.consent }),
        })
      : navigate('/');

  return (
    <>
      {booking && when && (
        <section aria-labelledby="attempt-time-title">
          <h2 id="attempt-time-title">{t('failure.yourTime')}</h2>
          <Details>
            <dt>{t('school')}</dt>
            <dd>{schoolName(booking.selectedSchool, locale)}</dd>
            <dt>{t('date')}</dt>
            <dd>{when.day}</dd>
            <dt>{t('time')}</dt>
            <dd>{t('timeGmt', { time: when.time })}</dd>
          </Details>
        </section>
      )}
      {booking && free === undefined && !unknown && <Spinner label={t('failure.checking')} />}
      {free && <p role="status">{t('failure.stillFree')}</p>}
      {booking && (free === null || unknown) && <p role="status">{t('failure.taken')}</p>}
      {declined && (
        <>
          <h2>{t('failure.causes')}</h2>
          <ul>
            <li>{t('failure.declined')}</li>
            <li>{t('failure.gateway')}</li>
            <li>{t('failure.expired')}</li>
          </ul>
          <Details>
            <dt>{t('paymentId')}</dt>
            <dd>
              <PaymentId>{givenId ?? t('failure.noPaymentId')}</PaymentId>
            </dd>
          </Details>
        </>
      )}
      <Actions>
        {declined ? (
          <>
            {/* The spec's Try Again: the same time with the same details while it is free, else the timetable. */}
            <Button onClick={again}>{free ? t('failure.bookAgain') : t('tryAgain')}</Button>
            <LinkButton href={supportMailto(givenId ?? 'N/A')}>{t('failure.contactSupport')}</LinkButton>
          </>
        ) : free ? (
          <>
            <Button onClick={again}>{t('failure.bookAgain')}</Button>
            <Button variant="secondary" onClick={() => navigate('/')}>
              {t('failure.chooseAnother')}
            </Button>
          </>
        ) : (
          <Button onClick={() => navigate('/')}>{t('failure.chooseAnother')}</Button>
        )}
      </Actions>
    </>
  );
}

/**
 * `?error=payment_cancelled`: the parent pressed Cancel on the gateway. Not a failure: nothing was charged. The page
 * names the time they were booking and, while it is still free, offers it again (the dialog opens on it with what they
 * typed); otherwise another time.
 */
function PaymentCancelled({ givenId, typed }: { givenId: string | null; typed: TypedAttempt }) {
  const { t } = useCatalog(resultCatalog);
  return (
    <ResultPanel aria-labelledby="cancelled-title">
      <h1 id="cancelled-title">{t('failure.cancelledTitle')}</h1>
      <p>{t('failure.cancelledText')}</p>
      <TryAgain givenId={givenId} typed={typed} />
      {givenId && (
        <Quiet>
          <span>{t('paymentId')}</span> <PaymentId>{givenId}</PaymentId>
        </Quiet>
      )}
    </ResultPanel>
  );
}
