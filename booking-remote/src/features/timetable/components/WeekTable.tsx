import { Button, media, styled, useCatalog } from 'shared-ui';
import { Callout } from '../../../lib/callout';
import { timetableCatalog } from '../i18n';
import type { BookableSlot } from '../../../lib/slot-list/displayFilter';
import { dayLabel, type CalendarDay } from '../utils/calendarDays';
import { DaySlots } from './SlotButtons';

// Below the desktop breakpoint the carousel takes over.
const Wrapper = styled.div`
  ${media.mobile`display: none;`}
`;

const Nav = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space[3]};
  margin-bottom: ${({ theme }) => theme.space[2]};
`;

const WeekName = styled.p`
  margin: 0;
  font-weight: ${({ theme }) => theme.fontWeights.bold};
  font-size: ${({ theme }) => theme.fontSizes.lg};
`;

const StyledTable = styled.table`
  width: 100%;
  table-layout: fixed;
  border-collapse: separate;
  border-spacing: ${({ theme }) => theme.space[2]};
`;

const Caption = styled.caption`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
`;

const HeaderCell = styled.th<{ $today: boolean }>`
  text-align: left;
  padding: ${({ theme }) => theme.space[3]};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme, $today }) => ($today ? theme.colors.brandSubtle : theme.colors.surfaceMuted)};
`;

const Weekday = styled.span`
  display: block;
  font-size: ${({ theme }) => theme.fontSizes.lg};
`;

const DateText = styled.span`
  display: block;
  font-weight: ${({ theme }) => theme.fontWeights.regular};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Cell = styled.td`
  vertical-align: top;
  padding: ${({ theme }) => theme.space[2]};
`;

const Full = styled(Callout)`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space[3]};
  margin-top: ${({ theme }) => theme.space[2]};
  p {
    flex: 1 1 16rem;
  }
`;

type Props = {
  days: CalendarDay[];
  slotsByDate: Map<string, BookableSlot[]>;
  onSelect: (slot: BookableSlot) => void;
  weekName: string;
  onPrevious?: () => void;
  onNext?: () => void;
  /** "Join the waitlist", offered under a week where no day has a free time (issue 26). */
  onJoinWaitlist?: (date: string) => void;
};

/** Desktop: Monday to Friday of the current week (GMT+8), with the following weeks a click away. */
export function WeekTable({ days, slotsByDate, onSelect, weekName, onPrevious, onNext, onJoinWaitlist }: Props) {
  const { t, locale } = useCatalog(timetableCatalog);
  const open = days.filter((day) => !day.isPast);
  const full = open.length > 0 && open.every((day) => (slotsByDate.get(day.date)?.length ?? 0) === 0);
  return (
    <Wrapper>
      <Nav>
        <Button variant="secondary" size="sm" onClick={onPrevious} disabled={!onPrevious}>
          {t('previousWeekButton')}
        </Button>
        <WeekName aria-live="polite">{weekName}</WeekName>
        <Button variant="secondary" size="sm" onClick={onNext} disabled={!onNext}>
          {t('nextWeekButton')}
        </Button>
      </Nav>
      <StyledTable>
        <Caption>{weekName}</Caption>
        <thead>
          <tr>
            {days.map((day) => {
              const { weekday, short } = dayLabel(day.date, locale);
              return (
                <HeaderCell key={day.date} scope="col" $today={day.isToday} aria-current={day.isToday ? 'date' : undefined}>
                  <Weekday>{weekday}</Weekday>
                  <DateText>{short}</DateText>
                </HeaderCell>
              );
            })}
          </tr>
        </thead>
        <tbody>
          <tr>
            {days.map((day) => (
              <Cell key={day.date}>
                <DaySlots date={day.date} isPast={day.isPast} slots={slotsByDate.get(day.date) ?? []} onSelect={onSelect} />
              </Cell>
            ))}
          </tr>
        </tbody>
      </StyledTable>
      {full && onJoinWaitlist && (
        <Full role="status">
          <p>{t('weekFull')}</p>
          <Button onClick={() => onJoinWaitlist(open[0].date)}>{t('joinWaitlist')}</Button>
        </Full>
      )}
    </Wrapper>
  );
}
