import { useLocation } from 'react-router-dom';
import { ManageBooking } from '../features/manage-booking';

// The token is the path's last part. Not useParams: the router the bundles share is a subset without it
// (scripts/federation/react-router-dom.ts), and adding it would grow the first load of `/`.
const tokenOf = (pathname: string): string => {
  const last = pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
};

/** `/booking/manage/:token`: the booking a manage link opens (view, change date or time, cancel). */
export default function ManageBookingPage() {
  const token = tokenOf(useLocation().pathname);
  // A new token (another link followed in the same tab) is another booking: start afresh.
  return <ManageBooking key={token} token={token} />;
}
