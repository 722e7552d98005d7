import { formatClock } from 'shared-api';
import { Button, Stack, styled, useCatalog } from 'shared-ui';
import { timetableCatalog } from '../i18n';
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
  /** A later day with free slots, for a day that has none: "Next available: Mon, 30 Nov" shows it. */
  nextAvailable?: { date: string; show: () => void };
  /** A full day: "Join the waitlist" for it (issue 26). */
  onJoinWaitlist?: (date: string) => void;
};

/** One day's slots as buttons showing the start time, or why there are none (and the next day that has some). */
export function DaySlots({ date, isPast, slots, onSelect, nextAvailable, onJoinWaitlist }: Props) {
  const { t, locale } = useCatalog(timetableCatalog);
  if (isPast) return <Message $past>{t('dayPassed')}</Message>;
  if (slots.length === 0)
    return (
      <Stack gap={3}>
        <Message>{t('noSlot')}</Message>
        {nextAvailable && (
          <Button fullWidth onClick={nextAvailable.show}>
            {t('nextAvailable', { date: dayLabel(nextAvailable.date, locale).long })}
          </Button>
        )}
        {onJoinWaitlist && (
          <Button variant="secondary" fullWidth onClick={() => onJoinWaitlist(date)}>
            {t('joinWaitlist')}
          </Button>
        )}
      </Stack>
    );
  const { long } = dayLabel(date, locale);
  return (
    <List>
      {slots.map((slot) => {
        const time = formatClock(slot.startMinutes, locale);
        return (
          <li key={slot.id}>
            <Button variant="secondary" fullWidth aria-label={t('slotLabel', { time, date: long })} onClick={() => onSelect(slot)}>
              {time}
            </Button>
          </li>
        );
      })}
    </List>
  );
}
