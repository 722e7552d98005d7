import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { media, styled, useCatalog } from 'shared-ui';
import { timetableCatalog } from '../i18n';
import type { BookableSlot } from '../../../lib/slot-list/displayFilter';
import { dayLabel, type CalendarDay } from '../utils/calendarDays';
import { DayStrip } from './DayStrip';
import { DaySlots } from './SlotButtons';

const Wrapper = styled.section`
  min-width: 0;
  ${media.desktop`display: none;`}
`;

// Each day is one full-width page; scroll-snap gives the swipe, the day strip gives taps and the keyboard. The slides are
// labelled groups (the APG carousel's pattern), not list items: a label belongs on a group, not on an li.
const Track = styled.div`
  display: flex;
  overflow-x: auto;
  scroll-snap-type: x mandatory;
  overscroll-behavior-x: contain;
  scrollbar-width: none;
  &::-webkit-scrollbar {
    display: none;
  }
  @media (prefers-reduced-motion: no-preference) {
    scroll-behavior: smooth;
  }
`;

const Page = styled.div`
  flex: 0 0 100%;
  min-width: 0;
  scroll-snap-align: start;
  box-sizing: border-box;
  padding: ${({ theme }) => theme.space[1]};
`;

const DayCard = styled.div<{ $today: boolean }>`
  border: 1px solid ${({ theme, $today }) => ($today ? theme.colors.brand : theme.colors.border)};
  border-radius: ${({ theme }) => theme.radii.lg};
  padding: ${({ theme }) => theme.space[4]};
  background: ${({ theme }) => theme.colors.surface};
`;

const DayTitle = styled.h2`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[2]};
  margin: 0 0 ${({ theme }) => theme.space[3]};
  font-size: ${({ theme }) => theme.fontSizes.lg};
`;

const TodayBadge = styled.span`
  display: inline-block;
  padding: 2px ${({ theme }) => theme.space[2]};
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.brand};
  color: ${({ theme }) => theme.colors.onBrand};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-weight: ${({ theme }) => theme.fontWeights.bold};
`;

type Props = {
  days: CalendarDay[];
  slotsByDate: Map<string, BookableSlot[]>;
  onSelect: (slot: BookableSlot) => void;
  /** A full day offers "Join the waitlist" for it (issue 26). */
  onJoinWaitlist?: (date: string) => void;
};

/**
 * Mobile: the next 14 weekdays, one day per page, swipeable and keyboard usable, under a strip of the days that says
 * which have free slots (a tap goes there); a day without any offers the next one that has some.
 */
export function DayCarousel({ days, slotsByDate, onSelect, onJoinWaitlist }: Props) {
  const { t, locale } = useCatalog(timetableCatalog);
  const [index, setIndex] = useState(0);
  const shownIndex = useRef(0);
  shownIndex.current = index;
  const trackRef = useRef<HTMLDivElement>(null);
  const last = days.length - 1;

  // A move by the buttons, the keys or the first jump scrolls smoothly, and its scroll events pass the pages on the
  // way: those must not become the current page (their buttons would be hidden under the parent's finger). The move
  // owns the index until the track arrives, stops (scrollend) or a second has passed.
  const movingTo = useRef<number | null>(null);
  const moveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const hold = (day: number) => {
    movingTo.current = day;
    clearTimeout(moveTimer.current);
    moveTimer.current = setTimeout(() => (movingTo.current = null), 1000);
  };
  // `instant`: the opening jump lands at once (a smooth one showed the page opening on a card sliding in from the edge).
  const go = useCallback(
    (next: number, instant = false) => {
      const clamped = Math.max(0, Math.min(last, next));
      shownIndex.current = clamped;
      setIndex(clamped);
      const track = trackRef.current;
      if (!track || typeof track.scrollTo !== 'function') return;
      const left = clamped * track.clientWidth;
      if (Math.abs(track.scrollLeft - left) >= 1) hold(clamped);
      track.scrollTo(instant ? { left, behavior: 'instant' } : { left });
    },
    [last],
  );
  useEffect(() => () => clearTimeout(moveTimer.current), []);

  // Opened late in the day, today may have nothing left: start once at the first day with a slot, not at "No slot available".
  const freeCounts = days.map((day) => slotsByDate.get(day.date)?.length ?? 0);
  const firstWithSlots = freeCounts.findIndex((count) => count > 0);
  const started = useRef(false);
  useEffect(() => {
    if (started.current || firstWithSlots < 0) return;
    started.current = true;
    if (firstWithSlots > 0) go(firstWithSlots, true);
  }, [firstWithSlots, go]);
  /** The first day after `from` with a free slot, or -1. */
  const nextWithSlots = (from: number) => freeCounts.findIndex((count, i) => i > from && count > 0);

  // A swipe moves the track; follow it so the buttons and the announced day stay right.
  useEffect(() => {
    const track = trackRef.current;
    if (!track) return;
    const pageShown = () => Math.round(track.scrollLeft / track.clientWidth);
    const onScroll = () => {
      if (track.clientWidth <= 0) return;
      const shown = pageShown();
      if (movingTo.current !== null) {
        if (shown !== movingTo.current) return;
        movingTo.current = null;
      }
      setIndex(shown);
    };
    // Where a scroll stops is a day: a track resting between two (half a card at its edge) is put on the day it owes.
    const onScrollEnd = () => {
      if (track.clientWidth <= 0) return;
      const day = movingTo.current ?? pageShown();
      movingTo.current = null;
      if (Math.abs(track.scrollLeft - day * track.clientWidth) >= 1) go(day, true);
      else setIndex(day);
    };
    // A resized window (a turned phone) moves the pages under the scroll position: the day shown stays the day shown,
    // whatever the browser's own re-snapping scrolls meanwhile.
    const onResize = () => {
      go(shownIndex.current, true);
      hold(shownIndex.current);
    };
    window.addEventListener('resize', onResize);
    track.addEventListener('scroll', onScroll, { passive: true });
    track.addEventListener('scrollend', onScrollEnd, { passive: true });
    return () => {
      window.removeEventListener('resize', onResize);
      track.removeEventListener('scroll', onScroll);
      track.removeEventListener('scrollend', onScrollEnd);
    };
  }, [go]);

  const inStrip = (event: KeyboardEvent) => (event.target as Element).closest('[role="toolbar"]') !== null;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') go(index + 1);
    else if (event.key === 'ArrowLeft') go(index - 1);
    // Home and End are the strip's (a toolbar's keys); elsewhere they keep scrolling the page.
    else if (event.key === 'Home' && inStrip(event)) go(0);
    else if (event.key === 'End' && inStrip(event)) go(last);
    else return;
    event.preventDefault();
  };

  return (
    <Wrapper aria-roledescription="carousel" aria-label={t('carouselLabel', { count: days.length })} onKeyDown={onKeyDown}>
      <DayStrip days={days} freeCounts={freeCounts} chosen={index} onChoose={(i) => go(i)} />
      <Track ref={trackRef}>
        {days.map((day, i) => {
          const { weekday, short, long } = dayLabel(day.date, locale);
          return (
            <Page
              key={day.date}
              role="group"
              aria-roledescription="slide"
              aria-label={t('slideLabel', { date: long, position: i + 1, total: days.length })}
              aria-hidden={i !== index}
              inert={i !== index}
            >
              <DayCard $today={day.isToday}>
                <DayTitle>
                  {t('dayTitle', { weekday, date: short })}
                  {day.isToday && <TodayBadge>{t('today')}</TodayBadge>}
                </DayTitle>
                <DaySlots
                  date={day.date}
                  isPast={day.isPast}
                  slots={slotsByDate.get(day.date) ?? []}
                  onSelect={onSelect}
                  nextAvailable={nextWithSlots(i) > i ? { date: days[nextWithSlots(i)].date, show: () => go(nextWithSlots(i)) } : undefined}
                  onJoinWaitlist={onJoinWaitlist}
                />
              </DayCard>
            </Page>
          );
        })}
      </Track>
    </Wrapper>
  );
}
