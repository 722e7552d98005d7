import { useLocation } from 'react-router-dom';
import { ManageBooking } from '../features/manage-booking';
import { tokenOf } from './tokenOf';

/** `/booking/manage/:token`: the booking a manage link opens (view, change date or time, cancel). */
export default function ManageBookingPage() {
  const token = tokenOf(useLocation().pathname);
  // A new token (another link followed in the same tab) is another booking: start afresh.
  return <ManageBooking key={token} token={token} />;
}
