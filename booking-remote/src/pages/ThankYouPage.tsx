import { useLocation, useNavigate } from 'react-router-dom';
import { schoolName, slotStartMs, type EmailStatus, type PaymentStatusResult } from 'shared-api';
import { changeTerms } from 'shared-api/change-terms';
import { useTermsText } from '../lib/changeTerms';
import { Button, useCatalog } from 'shared-ui';
import { Actions, Details, EmailNotice, RegistrationNotice, ResultPanel, VisitBlock, resultCatalog, visitTitle, visitWhen, type EmailTimeouts } from '../features/payment-result';
import { ManageLinkNotice } from '../features/manage-booking/link';
import { SchoolPlaceRows } from '../lib/school-place/SchoolPlaceRows';
import { NothingHere } from './NotFoundPage';

/** What the booking flow hands over in the navigation state. */
export type ThankYouState = {
  emailStatus?: EmailStatus;
  emailTimeouts?: EmailTimeouts;
  payment?: PaymentStatusResult['payment'];
  booking?: PaymentStatusResult['booking'];
};

/** `/thankyou`: the booking is done; what happens with the emails. */
export default function ThankYouPage() {
  const navigate = useNavigate();
  const { t, locale } = useCatalog(resultCatalog);
  const state = (useLocation().state ?? {}) as ThankYouState;
  const booking = state.booking;
  const when = booking ? visitWhen(booking.date, booking.startTime, booking.endTime, locale) : null;
  const termsText = useTermsText();
  const start = booking ? slotStartMs(booking.date.slice(0, 10), booking.startTime) : NaN;
  // Opened directly (a bookmark, a shared address): no booking was handed over, so none is announced.
  if (!booking && !state.payment && !state.emailStatus) return <NothingHere title={t('none.title')} text={t('none.text')} />;

  return (
    <ResultPanel aria-labelledby="thankyou-title">
      <h1 id="thankyou-title">{t('thankYou.title')}</h1>
      <EmailNotice emailStatus={state.emailStatus} emailTimeouts={state.emailTimeouts} />
      {booking && when && (
        // The visit: whose it is (the child, from the payment's own answer), where and when.
        <VisitBlock aria-labelledby="thankyou-visit">
          <h2 id="thankyou-visit">{visitTitle('childName' in booking && booking.childName ? { name: booking.childName, year: booking.childYear } : null, booking.selectedSchool, t, locale)}</h2>
          <Details>
            <dt>{t('date')}</dt>
            <dd>{when.day}</dd>
            <dt>{t('time')}</dt>
            <dd>{t('timeGmt', { time: when.time })}</dd>
            <dt>{t('school')}</dt>
            <dd>{schoolName(booking.selectedSchool, locale)}</dd>
            <SchoolPlaceRows school={booking.selectedSchool} />
            {state.payment && (
              <>
                <dt>{t('reference')}</dt>
                <dd>{state.payment.reference}</dd>
              </>
            )}
          </Details>
        </VisitBlock>
      )}
      {/* The booking flow of this browser hands over the payment it made: the one whose reference is shown above. */}
      <ManageLinkNotice paymentId={state.payment && 'id' in state.payment ? state.payment.id : null}>
        {/* Just booked: the refund is counted from this visit's own time. */}
        {booking && !Number.isNaN(start) && <p>{termsText(changeTerms({ start, now: Date.now() }))}</p>}
      </ManageLinkNotice>
      <RegistrationNotice />
      <Actions>
        <Button onClick={() => navigate('/')}>{t('backHome')}</Button>
      </Actions>
    </ResultPanel>
  );
}
