import { useLocation, useNavigate } from 'react-router-dom';
import type { EmailStatus, PaymentStatusResult } from 'shared-api';
import { Button } from 'shared-ui';
import { Actions, Details, RegistrationNotice, ResultPanel, visitWhen } from '../features/payment-result';

/** What the booking flow hands over in the navigation state. */
export type ThankYouState = {
  emailStatus?: EmailStatus;
  emailTimeouts?: { visitorEmailTimeout?: boolean; adminEmailTimeout?: boolean };
  payment?: PaymentStatusResult['payment'];
  booking?: PaymentStatusResult['booking'];
};

const emailMessages: Record<EmailStatus, string> = {
  sent: 'A confirmation email with your booking details and the list of documents to bring will arrive in your inbox.',
  timeout: 'Your booking is confirmed. The confirmation email may be delayed.',
  failed:
    'Your booking is confirmed, but we could not send the confirmation email. Please check your email (including the spam folder) or contact the school if nothing arrives within 24 hours.',
  pending: 'Your confirmation email will be sent shortly.',
};

/** `/thankyou`: the booking is done; what happens with the emails. */
export default function ThankYouPage() {
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as ThankYouState;
  const status = state.emailStatus ?? 'sent';
  const booking = state.booking;
  const when = booking ? visitWhen(booking.date, booking.startTime, booking.endTime) : null;

  return (
    <ResultPanel aria-labelledby="thankyou-title">
      <h1 id="thankyou-title">Your booking is complete!</h1>
      <p role="status">{emailMessages[status] ?? emailMessages.sent}</p>
      {(state.emailTimeouts?.visitorEmailTimeout || state.emailTimeouts?.adminEmailTimeout) && (
        <ul>
          {state.emailTimeouts?.visitorEmailTimeout && <li>Your confirmation email may be delayed.</li>}
          {state.emailTimeouts?.adminEmailTimeout && <li>School administrator notification may be delayed.</li>}
        </ul>
      )}
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
      <RegistrationNotice />
      <Actions>
        <Button onClick={() => navigate('/')}>Back to Home</Button>
      </Actions>
    </ResultPanel>
  );
}
