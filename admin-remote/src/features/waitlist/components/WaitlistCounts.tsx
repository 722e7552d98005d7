import { Link } from 'react-router-dom';
import { styled, useCatalog } from 'shared-ui';
import { CountCards } from '../../../lib/CountCards';
import { useStaffWaitlistSummaryQuery } from '../api/waitlistApi';
import { waitlistCatalog } from '../i18n';

const Heading = styled.h2`
  margin: ${({ theme }) => theme.space[4]} 0 ${({ theme }) => theme.space[2]};
  font-size: 1.125rem;
`;

/** The dashboard's waitlist counts: waiting now, offers live, filled from the list this week (a link to the page). */
export function WaitlistCounts() {
  const { t } = useCatalog(waitlistCatalog);
  const summary = useStaffWaitlistSummaryQuery(undefined, {
    pollingInterval: 60_000,
    refetchOnMountOrArgChange: true,
  });
  const cards = [
    { id: 'waitlist-waiting', label: t('countWaiting'), count: summary.data?.waiting },
    { id: 'waitlist-offers-live', label: t('countOffersLive'), count: summary.data?.offersLive },
    { id: 'waitlist-filled', label: t('countFilled'), count: summary.data?.filledThisWeek },
  ];
  return (
    <section aria-labelledby="waitlist-counts-title">
      <Heading id="waitlist-counts-title">
        <Link to="/secured/waitlist">{t('countsLabel')}</Link>
      </Heading>
      <CountCards cards={cards} phoneColumns={1} />
    </section>
  );
}
