import { Button, Inline, useCatalog } from 'shared-ui';
import { Badge } from 'shared-ui/data';
import type { SlotFilter } from '../hooks/useSlotFilter';
import { dashboardCatalog } from '../i18n';

const badgeText = {
  available: 'showingAvailable',
  booked: 'showingBooked',
  past: 'showingPast',
} as const satisfies Record<SlotFilter, string>;

const options = [
  { value: 'available', label: 'filterAvailable' },
  { value: 'booked', label: 'filterBooked' },
  { value: 'past', label: 'filterPast' },
] as const satisfies ReadonlyArray<{ value: SlotFilter; label: string }>;

/** Toggle buttons (aria-pressed) and the badge naming what the table shows. */
export function SlotFilterToggle({ value, onChange }: { value: SlotFilter; onChange: (next: SlotFilter) => void }) {
  const { t } = useCatalog(dashboardCatalog);
  return (
    <Inline>
      <div role="group" aria-label={t('filterGroup')}>
        {options.map((option, i) => (
          <span key={option.value}>
            {i > 0 && ' '}
            <Button
              size="sm"
              variant={value === option.value ? 'primary' : 'secondary'}
              aria-pressed={value === option.value}
              onClick={() => onChange(option.value)}
            >
              {t(option.label)}
            </Button>
          </span>
        ))}
      </div>
      <Badge tone={value === 'booked' ? 'success' : value === 'past' ? 'neutral' : 'info'}>{t(badgeText[value])}</Badge>
    </Inline>
  );
}
