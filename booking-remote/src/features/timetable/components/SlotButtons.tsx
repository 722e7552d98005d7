import { formatMinutes12 } from 'shared-api';
import { Button, styled } from 'shared-ui';
import type { BookableSlot } from '../../../lib/slot-list/displayFilter';
import { dayLabel } from '../utils/calendarDays';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[2]};
`;

const Message = styled.p<{ $past?: boolean }>`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-style: ${({ $past }) => ($past ? 'italic' : 'normal')};
`;

type Props = {
  date: string;
  isPast: boolean;
  slots: BookableSlot[];
  onSelect: (slot: BookableSlot) => void;
};

/** One day's slots as buttons showing the start time, or why there are none. */
export function DaySlots({ date, isPast, slots, onSelect }: Props) {
  if (isPast) return <Message $past>Day has passed!</Message>;
  if (slots.length === 0) return <Message>No slot available</Message>;
  const { long } = dayLabel(date);
  return (
    <List>
      {slots.map((slot) => {
        const time = formatMinutes12(slot.startMinutes);
        return (
          <li key={slot.id}>
            <Button variant="secondary" fullWidth aria-label={`${time}, ${long}`} onClick={() => onSelect(slot)}>
              {time}
            </Button>
          </li>
        );
      })}
    </List>
  );
}
