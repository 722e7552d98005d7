import { useEffect, useRef } from 'react';
import { addDays, formatDayInMY, weekdayOf } from 'shared-api';
import { styled, useCatalog, VisuallyHidden } from 'shared-ui';
import { timetableCatalog } from '../i18n';
import { dayLabel, type CalendarDay } from '../utils/calendarDays';

// Monday to Friday columns, as a wall calendar: a day sits under its weekday, the first week starts at today.
const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(5, minmax(0, 1fr));
  gap: ${({ theme }) => theme.space[1]};
  margin-bottom: ${({ theme }) => theme.space[3]};
  /* The weekday names above the columns. */
  > span {
    text-align: center;
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: ${({ theme }) => theme.fontSizes.xs};
  }
`;

// A day with free slots is tinted and bold; one without is plain and muted; the chosen one is filled. The count under
// the date says the same in words, so colour is never the only sign.
const Day = styled.button<{ $free: boolean; $today: boolean }>`
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  min-height: ${({ theme }) => theme.tapTarget};
  padding: 2px;
  border: 1px solid ${({ theme, $today }) => ($today ? theme.colors.brand : 'transparent')};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme, $free }) => ($free ? theme.colors.brandSubtle : 'transparent')};
  color: ${({ theme, $free }) => ($free ? theme.colors.brand : theme.colors.textMuted)};
  font: inherit;
  font-weight: ${({ theme, $free }) => ($free ? theme.fontWeights.bold : theme.fontWeights.regular)};
  line-height: 1.2;
  cursor: pointer;
  small {
    font-size: ${({ theme }) => theme.fontSizes.xs};
    font-weight: ${({ theme }) => theme.fontWeights.regular};
  }
  &[aria-pressed='true'] {
    background: ${({ theme }) => theme.colors.brand};
    border-color: ${({ theme }) => theme.colors.brand};
    color: ${({ theme }) => theme.colors.onBrand};
  }
  &:focus-visible {
    outline: none;
    box-shadow: ${({ theme }) => theme.focusRing};
  }
`;

type Props = {
  days: CalendarDay[];
  /** Free slots per day, in `days`' order. */
  freeCounts: number[];
  chosen: number;
  onChoose: (index: number) => void;
};

/**
 * The carousel's 14 weekdays at a glance, each saying how many slots it has free; a tap shows that day. A toolbar of
 * toggle buttons with one tab stop: the carousel's arrow keys move the day, and focus follows it here.
 */
export function DayStrip({ days, freeCounts, chosen, onChoose }: Props) {
  const { t, locale } = useCatalog(timetableCatalog);
  const grid = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const strip = grid.current;
    if (strip?.contains(document.activeElement)) strip.querySelector<HTMLElement>('[aria-pressed="true"]')?.focus();
  }, [chosen]);
  if (days.length === 0) return null;
  // Blank cells before the first day, so each day sits under its weekday (Monday is 0).
  const lead = (weekdayOf(days[0].date) + 6) % 7;
  return (
    <Grid ref={grid} role="toolbar" aria-label={t('chooseDay')}>
      {[0, 1, 2, 3, 4].map((column) => (
        // The column's weekday in the page's language (decoration: each day names itself to screen readers).
        <span key={column} aria-hidden="true">
          {formatDayInMY(addDays(days[0].date, column - lead), 'weekday', locale)}
        </span>
      ))}
      {Array.from({ length: lead }, (_, i) => (
        <span key={`lead-${i}`} />
      ))}
      {days.map((day, i) => {
        const free = freeCounts[i] ?? 0;
        const count = free > 0 ? t('freeCount', { count: free }) : t('noneFree');
        return (
          <Day
            key={day.date}
            type="button"
            $free={free > 0}
            $today={day.isToday}
            aria-pressed={i === chosen}
            tabIndex={i === chosen ? 0 : -1}
            onClick={() => onChoose(i)}
          >
            <span aria-hidden="true">{Number(day.date.slice(8))}</span>
            <small aria-hidden="true">{count}</small>
            <VisuallyHidden>{t('dayFree', { date: dayLabel(day.date, locale).long, count })}</VisuallyHidden>
          </Day>
        );
      })}
    </Grid>
  );
}
