import { Link } from 'react-router-dom';
import { media, styled, useCatalog } from 'shared-ui';
import { Card, CardBody } from 'shared-ui/data';
import { useStaffWaitlistSummaryQuery } from '../api/waitlistApi';
import { waitlistCatalog } from '../i18n';

const Grid = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  grid-template-columns: minmax(0, 1fr);
  ${media.desktop`grid-template-columns: repeat(3, minmax(0, 1fr));`}
`;

const Heading = styled.h2`
  margin: ${({ theme }) => theme.space[4]} 0 ${({ theme }) => theme.space[2]};
  font-size: 1.125rem;
`;

const Label = styled.p`
  margin: 0;
  font-size: 0.875rem;
`;

const Value = styled.p`
  margin: 0.25rem 0 0;
  font-size: 1.75rem;
  font-weight: 700;
`;

/** The dashboard's waitlist counts: waiting now, offers live, filled from the list this week (a link to the page). */
export function WaitlistCounts() {
  const { t } = useCatalog(waitlistCatalog);
  const summary = useStaffWaitlistSummaryQuery(undefined, { pollingInterval: 60_000, refetchOnMountOrArgChange: true });
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
      <Grid>
        {cards.map(({ id, label, count }) => (
          <li key={id}>
            <Card>
              <CardBody>
                <Label id={id}>{label}</Label>
                <Value aria-labelledby={id} data-testid={id}>
                  {count ?? '–'}
                </Value>
              </CardBody>
            </Card>
          </li>
        ))}
      </Grid>
    </section>
  );
}
