import { useLocation, useNavigate } from 'react-router-dom';
import type { EmailStatus, PaymentStatusResult } from 'shared-api';
import { Button } from 'shared-ui';
import { Actions, Details, EmailNotice, RegistrationNotice, ResultPanel, visitWhen, type EmailTimeouts } from '../features/payment-result';
import { ManageLinkNotice } from '../features/manage-booking/link';

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
  const state = (useLocation().state ?? {}) as ThankYouState;
  const booking = state.booking;
  const when = booking ? visitWhen(booking.date, booking.startTime, booking.endTime) : null;

  return (
    <ResultPanel aria-labelledby="thankyou-title">
      <h1 id="thankyou-title">Your booking is complete!</h1>
      <EmailNotice emailStatus={state.emailStatus} emailTimeouts={state.emailTimeouts} />
      {booking && when && (
        <Details>
          <dt>Date</dt>
          <dd>{when.day}</dd>
          <dt>Time</dt>
          <dd>{when.time} (GMT+8)</dd>
          <dt>School</dt>
          <dd>{booking.selectedSchool}</dd>
          {state.payment && (
            <>
              <dt>Reference</dt>
              <dd>{state.payment.reference}</dd>
            </>
          )}
        </Details>
      )}
      {/* The booking flow of this browser hands over the payment it made: the one whose reference is shown above. */}
      <ManageLinkNotice paymentId={state.payment?.id ?? null} />
      <RegistrationNotice />
      <Actions>
        <Button onClick={() => navigate('/')}>Back to Home</Button>
      </Actions>
    </ResultPanel>
  );
}
