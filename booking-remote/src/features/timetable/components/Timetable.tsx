import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { formatInMY, isWeekend, todayInMY, type Locale } from 'shared-api';
import { Button, Skeleton, styled, useCatalog, type Translate } from 'shared-ui';
import { timetableCatalog } from '../i18n';
import { TIMETABLE_POLL_MS, useGetHealthQuery, useGetPublicSlotsQuery } from '../api/timetableApi';
import { currentWeekdays, dayLabel, upcomingWeekdays } from '../utils/calendarDays';
import { filterDisplayableSlots, type BookableSlot } from '../../../lib/slot-list/displayFilter';
import { ActionNotice } from './ActionNotice';
import { DayCarousel } from './DayCarousel';
import { SchoolFees } from './SchoolFees';
import { WeekTable } from './WeekTable';

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[4]};
  min-width: 0;
`;

const Title = styled.h1`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.xl};
`;

const Notes = styled.div`
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  p {
    margin: 0;
  }
`;

const Reserved = styled.p`
  visibility: hidden;
`;

// The error and warning notices, fetched when one shows (a healthy page never loads their words or rules).
const problems = () => import('../problems/TimetableProblems');
const HealthProblem = lazy(() => problems().then((module) => ({ default: module.HealthProblem })));
const SlotListProblem = lazy(() => problems().then((module) => ({ default: module.SlotListProblem })));
const Problem = ({ children }: { children: ReactNode }) => <Suspense fallback={null}>{children}</Suspense>;

const Loading = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[2]};
`;

/** Re-renders every minute so slots that fall inside the 1-hour lead time disappear without a fetch. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(id);
  }, []);
  return now;
}

/** The desktop table reaches as far as the carousel's 14 weekdays: this week and two more. */
const LAST_WEEK_OFFSET = 2;
const WEEK_OFFSETS = Array.from({ length: LAST_WEEK_OFFSET + 1 }, (_, offset) => offset);

type Messages = NonNullable<typeof timetableCatalog.messages>;

const weekNameFor = (offset: number, monday: string, t: Translate<Messages>, locale: Locale) =>
  offset === 0 ? t('thisWeek') : offset === 1 ? t('nextWeek') : t('weekOf', { date: dayLabel(monday, locale).short });

type Props = {
  onSelectSlot: (slot: BookableSlot) => void;
  /** "Join the waitlist" from a full day (carousel) or a full week (table), with that day; for the whole period, none (issue 26). */
  onJoinWaitlist?: (date?: string) => void;
};

/** The public timetable: desktop week table, mobile 14-weekday carousel, notes, health and errors. */
export function Timetable({ onSelectSlot, onJoinWaitlist }: Props) {
  const { t, locale } = useCatalog(timetableCatalog);
  const slots = useGetPublicSlotsQuery(undefined, {
    pollingInterval: TIMETABLE_POLL_MS,
    skipPollingIfUnfocused: true,
    refetchOnFocus: true,
    refetchOnReconnect: true,
  });
  const health = useGetHealthQuery();
  const minuteNow = useMinuteClock();
  const [chosenWeek, setChosenWeek] = useState<number | null>(null);

  const fetchedAt = slots.data?.fetchedAt;
  const now = Math.max(minuteNow, fetchedAt ?? 0);
  const slotsByDate = useMemo(() => {
    const byDate = new Map<string, BookableSlot[]>();
    for (const slot of filterDisplayableSlots(slots.data?.slots ?? [], now)) {
      byDate.set(slot.date, [...(byDate.get(slot.date) ?? []), slot]);
    }
    return byDate;
  }, [slots.data, now]);

  const retry = () => {
    void slots.refetch();
    void health.refetch();
  };
  // Anything but a healthy answer: the notice's module says what (and may say nothing).
  const unhealthy = health.isError || (health.data !== undefined && (health.data.status !== 'healthy' || health.data.errorType != null || health.data.database !== 'database_healthy'));
  // The desk opens where the phone does, on the first free time: the first of its weeks with one (a Friday afternoon
  // opened on a spent week offering the waitlist while next week had times), kept while the parent looks; with none,
  // this week (on Saturday and Sunday, the coming one).
  const openingWeek = useRef<number | null>(null);
  if (openingWeek.current === null && slots.data) {
    const firstFree = WEEK_OFFSETS.find((offset) => currentWeekdays(now, offset).some((day) => !day.isPast && slotsByDate.has(day.date)));
    openingWeek.current = firstFree ?? (isWeekend(todayInMY(now)) ? 1 : 0);
  }
  const weekOffset = chosenWeek ?? openingWeek.current ?? (isWeekend(todayInMY(now)) ? 1 : 0);
  const weekDays = currentWeekdays(now, weekOffset);
  const days = upcomingWeekdays(now);
  // No free time in all the weeks shown: said first, with the waitlist for the whole period; the days stay below.
  const full = slots.data && !days.some((day) => slotsByDate.has(day.date));
  const dayWaitlist = full ? undefined : onJoinWaitlist;

  return (
    <Section aria-labelledby="timetable-title">
      <Title id="timetable-title">{t('title')}</Title>
      <Notes>
        <p>{t('leadNote')}</p>
        {fetchedAt !== undefined ? (
          <p>{t('lastUpdated', { time: formatInMY(fetchedAt, 'stamp', locale) })}</p>
        ) : (
          slots.isLoading && (
            // The line's place while the list loads, wrapped as it will be: its arrival moved all below it (CLS).
            <Reserved aria-hidden="true">{t('lastUpdated', { time: formatInMY(now, 'stamp', locale) })}</Reserved>
          )
        )}
      </Notes>
      <SchoolFees />

      {unhealthy && (
        <Problem>
          <HealthProblem data={health.data} error={health.error} onRetry={retry} />
        </Problem>
      )}

      {slots.isLoading ? (
        <Loading role="status" aria-live="polite">
          <p>{t('loading')}</p>
          <Skeleton height={44} />
          <Skeleton height={44} />
          <Skeleton height={44} />
        </Loading>
      ) : slots.isError && !slots.data ? (
        <Problem>
          <SlotListProblem error={slots.error} onRetry={retry} />
        </Problem>
      ) : (
        <>
          {slots.isError && (
            <Problem>
              <SlotListProblem error={slots.error} onRetry={retry} />
            </Problem>
          )}
          {full && onJoinWaitlist && (
            <ActionNotice role="status">
              <p>{t('weeksFull')}</p>
              <Button onClick={() => onJoinWaitlist()}>{t('joinWaitlist')}</Button>
            </ActionNotice>
          )}
          <WeekTable
            days={weekDays}
            slotsByDate={slotsByDate}
            onSelect={onSelectSlot}
            weekName={weekNameFor(weekOffset, weekDays[0].date, t, locale)}
            onPrevious={weekOffset > 0 ? () => setChosenWeek(weekOffset - 1) : undefined}
            onNext={weekOffset < LAST_WEEK_OFFSET ? () => setChosenWeek(weekOffset + 1) : undefined}
            onJoinWaitlist={dayWaitlist}
          />
          <DayCarousel days={days} slotsByDate={slotsByDate} onSelect={onSelectSlot} onJoinWaitlist={dayWaitlist} />
        </>
      )}
    </Section>
  );
}
