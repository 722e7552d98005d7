import { useState } from 'react';
import { Dashboard } from '../features/dashboard';
import { CreateSlotsDialog } from '../features/create-slots';
import { StaffAlertsNotice, useRefetchStaffAlerts } from '../features/alerts';
import { CalendarFeedPanel } from '../features/calendar-feed';
import { RequestsComingDue } from '../features/privacy';
import { BreachesComingDue } from '../features/breaches';
import { WaitlistCounts } from '../features/waitlist';

/** The dashboard, the staff alerts above its counts and the create dialog, composed here so no feature reaches into another. */
export function DashboardPage() {
  const [creating, setCreating] = useState(false);
  const refetchAlerts = useRefetchStaffAlerts();
  return (
    <>
      <Dashboard onCreateSlots={() => setCreating(true)} notice={<StaffAlertsNotice />} onRefresh={refetchAlerts} />
      <WaitlistCounts />
      <BreachesComingDue />
      <RequestsComingDue />
      <CalendarFeedPanel />
      <CreateSlotsDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
