import { Button, Inline } from 'shared-ui';
import { Badge } from 'shared-ui/data';
import type { SlotFilter } from '../hooks/useSlotFilter';

const badgeText: Record<SlotFilter, string> = {
  available: 'Showing: Available Slots',
  booked: 'Showing: Booked Slots',
  past: 'Showing: Past Slots',
};

const options: Array<{ value: SlotFilter; label: string }> = [
  { value: 'available', label: 'Available' },
  { value: 'booked', label: 'Booked' },
  { value: 'past', label: 'Past' },
];

/** Toggle buttons (aria-pressed) and the badge naming what the table shows. */
export function SlotFilterToggle({ value, onChange }: { value: SlotFilter; onChange: (next: SlotFilter) => void }) {
  return (
    <Inline>
      <div role="group" aria-label="Filter slots">
        {options.map((option, i) => (
          <span key={option.value}>
            {i > 0 && ' '}
            <Button
              size="sm"
              variant={value === option.value ? 'primary' : 'secondary'}
              aria-pressed={value === option.value}
              onClick={() => onChange(option.value)}
            >
              {option.label}
            </Button>
          </span>
        ))}
      </div>
      <Badge tone={value === 'booked' ? 'success' : value === 'past' ? 'neutral' : 'info'}>{badgeText[value]}</Badge>
    </Inline>
  );
}
