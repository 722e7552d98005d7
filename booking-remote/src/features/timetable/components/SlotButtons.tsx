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

// Under the time, small, wrapping inside the button: a phone's button never grows wider.
const Places = styled.small`
  display: block;
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-weight: ${({ theme }) => theme.fontWeights.regular};
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
        const label = t('slotLabel', { time, date: long });
        const places = slot.placesLeft && t('placesLeft', { count: slot.placesLeft });
        return (
          <li key={slot.id}>
            <Button variant="secondary" fullWidth aria-label={places ? t('withPlaces', { slot: label, places }) : label} onClick={() => onSelect(slot)}>
              {places ? (
                <span>
                  {time}
                  <Places>{places}</Places>
                </span>
              ) : (
                time
              )}
            </Button>
          </li>
        );
      })}
    </List>
  );
}
