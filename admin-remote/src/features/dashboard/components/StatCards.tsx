import { useCatalog } from 'shared-ui';
import type { StaffListStats as DashboardStats } from 'shared-api/schemas';
import { dashboardCatalog } from '../i18n';
import { CountCards } from '../../../lib/CountCards';

const cards = [
  { key: 'total', label: 'statTotal' },
  { key: 'booked', label: 'statBooked' },
  { key: 'available', label: 'statAvailable' },
  { key: 'today', label: 'statToday' },
] as const satisfies ReadonlyArray<{ key: keyof DashboardStats; label: string }>;

/** Four counts; a dash until the lists have loaded. */
export function StatCards({ stats, loading }: { stats: DashboardStats | undefined; loading: boolean }) {
  const { t } = useCatalog(dashboardCatalog);
  return (
    <CountCards
      label={t('statistics')}
      cards={cards.map(({ key, label }) => ({
        id: `stat-${key}`,
        label: t(label),
        count: loading || !stats ? undefined : stats[key],
      }))}
    />
  );
}
