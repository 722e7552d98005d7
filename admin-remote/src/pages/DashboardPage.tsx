import { useState } from 'react';
import { Dashboard } from '../features/dashboard';
import { CreateSlotsDialog } from '../features/create-slots';
import { StaffAlertsNotice, useRefetchStaffAlerts } from '../features/alerts';
import { CalendarFeedPanel } from '../features/calendar-feed';
import { RequestsComingDue } from '../features/privacy';
import { BreachesComingDue } from '../features/breaches';
import { WaitlistCounts } from '../features/waitlist';
import { TodayView } from '../features/visit-day';
import { SecondFactorGate } from '../features/auth';
import { useCatalog } from 'shared-ui';
import { pagesCatalog } from './i18n';

/**
 * The dashboard, the staff alerts above its counts and the create dialog, composed here so no feature reaches into
 * another. Admins also see the privacy deadlines and their calendar feed (its settings behind the second factor).
 */
export function DashboardPage({ admin }: { admin: boolean }) {
  const { t } = useCatalog(pagesCatalog);
  const [creating, setCreating] = useState(false);
  const refetchAlerts = useRefetchStaffAlerts();
  return (
    <>
      <Dashboard
        onCreateSlots={() => setCreating(true)}
        notice={
          <>
            <StaffAlertsNotice />
            <TodayView />
          </>
        }
        onRefresh={refetchAlerts}
      />
      <WaitlistCounts />
      {admin && (
        <>
          <BreachesComingDue />
          <RequestsComingDue />
          <SecondFactorGate panel={{ title: t('calendarFeedTitle'), intro: t('calendarFeedGate') }}>
            <CalendarFeedPanel />
          </SecondFactorGate>
        </>
      )}
      <CreateSlotsDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
