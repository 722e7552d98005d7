import { useLocation } from 'react-router-dom';
import { WaitlistEntry } from '../features/waitlist';
import { tokenOf } from './tokenOf';

/** `/waitlist/:token`: the parent's waitlist request or entry (confirm or "this wasn't me"; place, dates, change dates, leave). */
export default function WaitlistEntryPage() {
  const location = useLocation();
  const token = tokenOf(location.pathname);
  // The confirmation mail's "this wasn't me" link asks that question first (a press acts, never the opening).
  const askNotMe = new URLSearchParams(location.search).get('not-me') === '1';
  return <WaitlistEntry key={token} token={token} askNotMe={askNotMe} />;
}
