import { media, styled } from 'shared-ui';
import type { BookableSlot } from '../utils/displayFilter';
import { dayLabel, type CalendarDay } from '../utils/calendarDays';
import { DaySlots } from './SlotButtons';

// Below the desktop breakpoint the carousel takes over.
const Wrapper = styled.div`
  ${media.mobile`display: none;`}
`;

const StyledTable = styled.table`
  width: 100%;
  table-layout: fixed;
  border-collapse: separate;
  border-spacing: ${({ theme }) => theme.space[2]};
`;

const Caption = styled.caption`
  text-align: left;
  font-weight: ${({ theme }) => theme.fontWeights.bold};
  padding-bottom: ${({ theme }) => theme.space[2]};
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

type Props = { days: CalendarDay[]; slotsByDate: Map<string, BookableSlot[]>; onSelect: (slot: BookableSlot) => void };

/** Desktop: Monday to Friday of the current week (GMT+8). */
export function WeekTable({ days, slotsByDate, onSelect }: Props) {
  return (
    <Wrapper>
      <StyledTable>
        <Caption>This week</Caption>
        <thead>
          <tr>
            {days.map((day) => {
              const { weekday, short } = dayLabel(day.date);
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
    </Wrapper>
  );
}
