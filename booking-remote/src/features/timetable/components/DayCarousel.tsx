import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button, media, styled, useCatalog } from 'shared-ui';
import { timetableCatalog } from '../i18n';
import type { BookableSlot } from '../../../lib/slot-list/displayFilter';
import { dayLabel, type CalendarDay } from '../utils/calendarDays';
import { DaySlots } from './SlotButtons';

const Wrapper = styled.section`
  min-width: 0;
  ${media.desktop`display: none;`}
`;

const Controls = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space[2]};
  margin-bottom: ${({ theme }) => theme.space[3]};
`;

const Position = styled.p`
  margin: 0;
  flex: 1;
  text-align: center;
  font-weight: ${({ theme }) => theme.fontWeights.medium};
`;

// Each day is one full-width page; scroll-snap gives the swipe, the buttons give the keyboard.
const Track = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
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

const Page = styled.li`
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

type Props = { days: CalendarDay[]; slotsByDate: Map<string, BookableSlot[]>; onSelect: (slot: BookableSlot) => void };

/** Mobile: the next 14 weekdays, one day per page, swipeable and keyboard usable. */
export function DayCarousel({ days, slotsByDate, onSelect }: Props) {
  const { t, locale } = useCatalog(timetableCatalog);
  const [index, setIndex] = useState(0);
  const trackRef = useRef<HTMLUListElement>(null);
  const last = days.length - 1;

  // A move by the buttons, the keys or the first jump scrolls smoothly, and its scroll events pass the pages on the
  // way: those must not become the current page (their buttons would be hidden under the parent's finger). The move
  // owns the index until the track arrives, stops (scrollend) or a second has passed.
  const movingTo = useRef<number | null>(null);
  const moveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const go = useCallback(
    (next: number) => {
      const clamped = Math.max(0, Math.min(last, next));
      setIndex(clamped);
      const track = trackRef.current;
      if (!track || typeof track.scrollTo !== 'function') return;
      const left = clamped * track.clientWidth;
      if (Math.abs(track.scrollLeft - left) >= 1) {
        movingTo.current = clamped;
        clearTimeout(moveTimer.current);
        moveTimer.current = setTimeout(() => (movingTo.current = null), 1000);
      }
      track.scrollTo({ left });
    },
    [last],
  );
  useEffect(() => () => clearTimeout(moveTimer.current), []);

  // Opened late in the day, today may have nothing left: start once at the first day with a slot, not at "No slot available".
  const firstWithSlots = days.findIndex((day) => (slotsByDate.get(day.date)?.length ?? 0) > 0);
  const started = useRef(false);
  useEffect(() => {
    if (started.current || firstWithSlots < 0) return;
    started.current = true;
    if (firstWithSlots > 0) go(firstWithSlots);
  }, [firstWithSlots, go]);

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
    const onScrollEnd = () => {
      movingTo.current = null;
      if (track.clientWidth > 0) setIndex(pageShown());
    };
    track.addEventListener('scroll', onScroll, { passive: true });
    track.addEventListener('scrollend', onScrollEnd, { passive: true });
    return () => {
      track.removeEventListener('scroll', onScroll);
      track.removeEventListener('scrollend', onScrollEnd);
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') go(index + 1);
    else if (event.key === 'ArrowLeft') go(index - 1);
    else return;
    event.preventDefault();
  };

  const current = days[index];
  const currentLabel = current ? dayLabel(current.date, locale).long : '';

  return (
    <Wrapper aria-roledescription="carousel" aria-label={t('carouselLabel', { count: days.length })} onKeyDown={onKeyDown}>
      <Controls>
        <Button variant="secondary" size="sm" aria-label={t('previousDay')} disabled={index === 0} onClick={() => go(index - 1)}>
          ‹
        </Button>
        <Position aria-live="polite">
          {current?.isToday ? t('todayDate', { date: currentLabel }) : currentLabel}
        </Position>
        <Button variant="secondary" size="sm" aria-label={t('nextDay')} disabled={index >= last} onClick={() => go(index + 1)}>
          ›
        </Button>
      </Controls>
      <Track ref={trackRef}>
        {days.map((day, i) => {
          const { weekday, short, long } = dayLabel(day.date, locale);
          return (
            <Page
              key={day.date}
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
                <DaySlots date={day.date} isPast={day.isPast} slots={slotsByDate.get(day.date) ?? []} onSelect={onSelect} />
              </DayCard>
            </Page>
          );
        })}
      </Track>
    </Wrapper>
  );
}
