import { Waitlist } from '../features/waitlist';
import { StaffPageLayout } from './layouts/StaffPageLayout';

/** /secured/waitlist: each school's waitlist in order, its offers, and staff's moves and removals (with a reason). */
export function WaitlistPage() {
  return (
    <StaffPageLayout title="waitlistTitle">
      <Waitlist />
    </StaffPageLayout>
  );
}
