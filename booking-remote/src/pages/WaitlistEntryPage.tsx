import { useLocation } from 'react-router-dom';
import { WaitlistEntry } from '../features/waitlist';
import { tokenOf } from './tokenOf';

/** `/waitlist/:token`: the parent's waitlist entry (place, dates, change dates, leave). */
export default function WaitlistEntryPage() {
  const token = tokenOf(useLocation().pathname);
  return <WaitlistEntry key={token} token={token} />;
}
