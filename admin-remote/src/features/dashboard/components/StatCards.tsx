import { media, styled, useCatalog } from 'shared-ui';
import { Card, CardBody } from 'shared-ui/data';
import type { DashboardStats } from '../hooks/useDashboardSlots';
import { dashboardCatalog } from '../i18n';

const Grid = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  /* Two by two on a phone, one row of four on a desktop. */
  grid-template-columns: repeat(2, minmax(0, 1fr));
  ${media.desktop`grid-template-columns: repeat(4, minmax(0, 1fr));`}
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

const cards = [
  { key: 'total', label: 'statTotal' },
  { key: 'booked', label: 'statBooked' },
  { key: 'available', label: 'statAvailable' },
  { key: 'today', label: 'statToday' },
] as const satisfies ReadonlyArray<{ key: keyof DashboardStats; label: string }>;

/** Four counts; a dash until the lists have loaded. */
export function StatCards({ stats, loading }: { stats: DashboardStats; loading: boolean }) {
  const { t } = useCatalog(dashboardCatalog);
  return (
    <Grid aria-label={t('statistics')}>
      {cards.map(({ key, label }) => (
        <li key={key}>
          <Card>
            <CardBody>
              <Label id={`stat-${key}`}>{t(label)}</Label>
              <Value aria-labelledby={`stat-${key}`} data-testid={`stat-${key}`}>
                {loading ? '–' : stats[key]}
              </Value>
            </CardBody>
          </Card>
        </li>
      ))}
    </Grid>
  );
}
