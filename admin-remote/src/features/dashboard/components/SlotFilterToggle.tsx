import { Button, Inline } from 'shared-ui';
import { Badge } from 'shared-ui/data';
import type { SlotFilter } from '../hooks/useSlotFilter';

/** Two toggle buttons (aria-pressed) and the badge naming what the table shows. */
export function SlotFilterToggle({ value, onChange }: { value: SlotFilter; onChange: (next: SlotFilter) => void }) {
  return (
    <Inline>
      <div role="group" aria-label="Filter slots">
        <Button
          size="sm"
          variant={value === 'available' ? 'primary' : 'secondary'}
          aria-pressed={value === 'available'}
          onClick={() => onChange('available')}
        >
          Available
        </Button>{' '}
        <Button
          size="sm"
          variant={value === 'booked' ? 'primary' : 'secondary'}
          aria-pressed={value === 'booked'}
          onClick={() => onChange('booked')}
        >
          Booked
        </Button>
      </div>
      <Badge tone={value === 'booked' ? 'success' : 'info'}>
        {value === 'booked' ? 'Showing: Booked Slots' : 'Showing: Available Slots'}
      </Badge>
    </Inline>
  );
}
