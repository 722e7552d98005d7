import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from '../../../test/axe';
import { http, HttpResponse, delay } from 'msw';
import { legacyList, publicSlot } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server, startMswServer } from '../../../test/server';
import { PUBLIC_TIMETABLE_LIST_PATH } from 'shared-api';
import { activateLocale } from 'shared-ui';
import { Timetable } from './Timetable';

startMswServer();

// Wednesday 25 November 2026, 10:00 in GMT+8.
const NOW = new Date('2026-11-25T10:00:00+08:00');

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
});
afterEach(() => {
  jest.useRealTimers();
});

const weekTable = () => screen.getByRole('table', { name: 'This week' });
const carousel = () => screen.getByRole('region', { name: 'Next 14 weekdays' });
/** The day the phone carousel shows: the day strip's pressed day (its name: the date and its free slots). */
const shownDay = (region: HTMLElement) => within(within(region).getByRole('toolbar')).getByRole('button', { pressed: true });

describe('Timetable', () => {
  it('shows the loading text, then the week table Monday to Friday with past days and empty days', async () => {
    server.use(
      http.get(apiUrl('/public/list'), () =>
        HttpResponse.json(
          legacyList([
            publicSlot({ id: 1, date: '2026-11-25', startTime: '10:30' }), // under 1 hour ahead: hidden
            publicSlot({ id: 2, date: '2026-11-25', startTime: '2:00 PM' }),
            publicSlot({ id: 3, date: '2026-11-27', startTime: '12:00 PM' }),
            publicSlot({ id: 4, date: '2026-11-27', startTime: '08:30', isBooked: true }),
            publicSlot({ id: 5, date: '2026-11-27', startTime: '09:00', status: 'reserved' }),
          ]),
        ),
      ),
    );
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(screen.getByText('Loading available slots...')).toBeInTheDocument();
    // The "Last updated" line's place is kept while loading (so nothing below moves when it comes), unheard and unseen.
    expect(screen.getByText(/^Last updated:/)).toHaveAttribute('aria-hidden', 'true');

    const table = await screen.findByRole('table', { name: 'This week' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Mon23 Nov', 'Tue24 Nov', 'Wed25 Nov', 'Thu26 Nov', 'Fri27 Nov']);
    const cells = within(table).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('Day has passed!');
    expect(cells[1]).toHaveTextContent('Day has passed!');
    expect(within(cells[2]).getAllByRole('button').map((b) => b.textContent)).toEqual(['2:00 PM']);
    expect(cells[3]).toHaveTextContent('No slot available');
    expect(within(cells[4]).getAllByRole('button').map((b) => b.textContent)).toEqual(['12:00 PM']);

    expect(screen.getByText('Slots must be booked at least 1 hour in advance. All times are in GMT+8.')).toBeInTheDocument();
    expect(screen.getByText(/Last updated: 25 Nov 2026, 10:00:\d\d AM/)).not.toHaveAttribute('aria-hidden');
  });

  it('moves the desktop table to the next weeks and back, up to the 14-weekday horizon', async () => {
    server.use(
      http.get(apiUrl('/public/list'), () =>
        HttpResponse.json(
          legacyList([publicSlot({ id: 6, date: '2026-11-26', startTime: '10:00' }), publicSlot({ id: 7, date: '2026-12-02', startTime: '10:00' })]),
        ),
      ),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp(<Timetable onSelectSlot={() => {}} />);
    await screen.findByRole('table', { name: 'This week' });
    expect(screen.getByRole('button', { name: '‹ Previous week' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next week ›' }));
    const next = screen.getByRole('table', { name: 'Next week' });
    expect(within(next).getAllByRole('columnheader')[0]).toHaveTextContent('Mon30 Nov');
    expect(within(next).getByRole('button', { name: '10:00 AM, Wednesday 2 December 2026' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next week ›' }));
    expect(screen.getByRole('table', { name: 'Week of 7 Dec' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next week ›' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: '‹ Previous week' }));
    await user.click(screen.getByRole('button', { name: '‹ Previous week' }));
    expect(screen.getByRole('table', { name: 'This week' })).toBeInTheDocument();
  });

  it('opens the desktop table on the first week with a free time: a taken week is one click back, with its waitlist', async () => {
    server.use(
      http.get(apiUrl('/public/list'), () =>
        HttpResponse.json(
          legacyList([
            publicSlot({ id: 1, date: '2026-11-26', startTime: '10:00', isBooked: true }),
            publicSlot({ id: 2, date: '2026-12-03', startTime: '2:00 PM' }),
          ]),
        ),
      ),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp(<Timetable onSelectSlot={() => {}} onJoinWaitlist={() => {}} />);
    const next = await screen.findByRole('table', { name: 'Next week' });
    expect(within(next).getByRole('button', { name: '2:00 PM, Thursday 3 December 2026' })).toBeInTheDocument();
    expect(screen.queryByText(/Every time this week is taken/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '‹ Previous week' }));
    expect(screen.getByRole('table', { name: 'This week' })).toBeInTheDocument();
    expect(screen.getByText(/Every time this week is taken/)).toBeInTheDocument();
  });

  it('fully booked: says first that the coming weeks are full, with the waitlist for the whole period, before the day strip', async () => {
    // Every time in the 14 weekdays taken (and one too soon to book).
    server.use(
      http.get(apiUrl('/public/list'), () =>
        HttpResponse.json(
          legacyList([
            publicSlot({ id: 1, date: '2026-11-25', startTime: '10:30' }),
            publicSlot({ id: 2, date: '2026-11-26', startTime: '10:00', isBooked: true }),
            publicSlot({ id: 3, date: '2026-12-03', startTime: '2:00 PM', status: 'reserved' }),
          ]),
        ),
      ),
    );
    const joined: Array<string | undefined> = [];
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp(<Timetable onSelectSlot={() => {}} onJoinWaitlist={(day) => joined.push(day)} />);
    const notice = await screen.findByText('Every time in the coming weeks is taken. Join the waitlist and we will email you when a time frees.');
    // One waitlist action, a filled one, before the days (kept below for reference), for no one day in particular.
    const join = screen.getByRole('button', { name: 'Join the waitlist' });
    const strip = within(carousel()).getByRole('toolbar', { name: 'Choose a day' });
    expect(notice.compareDocumentPosition(join) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(join.compareDocumentPosition(strip) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(join.compareDocumentPosition(weekTable()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(strip).getAllByRole('button')).toHaveLength(14);
    expect(screen.queryByText(/Every time this week is taken/)).not.toBeInTheDocument();
    await user.click(join);
    expect(joined).toEqual([undefined]);
  });

  it('not fully booked: no full notice, and a full day keeps its own waitlist', async () => {
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot({ id: 1, date: '2026-12-03', startTime: '2:00 PM' })]))));
    const joined: Array<string | undefined> = [];
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp(<Timetable onSelectSlot={() => {}} onJoinWaitlist={(day) => joined.push(day)} />);
    await screen.findByRole('table', { name: 'Next week' });
    expect(screen.queryByText(/coming weeks is taken/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '‹ Previous week' }));
    await user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(joined).toEqual(['2026-11-25']);
  });

  it('opens on the coming week on a weekend, when every day of the current week has passed', async () => {
    jest.setSystemTime(new Date('2026-11-28T10:00:00+08:00'));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    const table = await screen.findByRole('table', { name: 'Next week' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Mon30 Nov',
      'Tue1 Dec',
      'Wed2 Dec',
      'Thu3 Dec',
      'Fri4 Dec',
    ]);
    expect(within(table).queryByText('Day has passed!')).not.toBeInTheDocument();
  });

  it('calls the list as the spec says (limit 100, page 1, format legacy), at the one URL the shell preloads', async () => {
    const seen: URL[] = [];
    server.use(
      http.get(apiUrl('/public/list'), ({ request }) => {
        seen.push(new URL(request.url));
        return HttpResponse.json(legacyList([]));
      }),
    );
    renderApp(<Timetable onSelectSlot={() => {}} />);
    await screen.findByRole('table', { name: 'This week' });
    expect(seen).toHaveLength(1);
    const params = seen[0].searchParams;
    expect([params.get('limit'), params.get('page'), params.get('format')]).toEqual(['100', '1', 'legacy']);
    // No `_t`: a per-call cache buster would miss the shell's preload (the API's no-store does that job).
    expect(seen[0].pathname + seen[0].search).toBe(PUBLIC_TIMETABLE_LIST_PATH);
  });

  it('reads every page when more than 100 slots are bookable (300): no time is left out of the week', async () => {
    // 300 slots, 30 a weekday (07:00 to 21:30); Friday's last, so they are on page 3 of 100.
    const days = ['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-07', '2026-12-08', '2026-12-09', '2026-11-26', '2026-11-27'];
    const times = Array.from({ length: 30 }, (_, i) => `${String(7 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
    const all = days.flatMap((date, d) => times.map((startTime, t) => publicSlot({ id: d * 100 + t + 1, date, startTime })));
    const pages: string[] = [];
    server.use(
      http.get(apiUrl('/public/list'), ({ request }) => {
        const params = new URL(request.url).searchParams;
        const page = Number(params.get('page'));
        pages.push(String(page));
        const body = legacyList(all.slice((page - 1) * 100, page * 100));
        return HttpResponse.json({ ...body, data: { ...body.data, pagination: { total: all.length, page, limit: 100, totalPages: 3 } } });
      }),
    );
    renderApp(<Timetable onSelectSlot={() => {}} />);
    const table = await screen.findByRole('table', { name: 'This week' });
    const friday = within(table).getAllByRole('cell')[4];
    expect(within(friday).getAllByRole('button')).toHaveLength(30);
    expect(within(within(table).getAllByRole('cell')[3]).getAllByRole('button')).toHaveLength(30);
    expect(pages.sort()).toEqual(['1', '2', '3']);
  });

  it('accepts the grouped shape', async () => {
    server.use(
      http.get(apiUrl('/public/list'), () =>
        HttpResponse.json({
          success: true,
          message: 'ok',
          data: { '48': { '2026-11-26': [{ ...publicSlot({ id: 9, date: '2026-11-26', startTime: '3:30 PM' }), week: 48 }] } },
        }),
      ),
    );
    renderApp(<Timetable onSelectSlot={() => {}} />);
    const table = await screen.findByRole('table', { name: 'This week' });
    expect(within(table).getByRole('button', { name: '3:30 PM, Thursday 26 November 2026' })).toBeInTheDocument();
  });

  it('hands the chosen slot to the caller', async () => {
    const onSelect = jest.fn();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp(<Timetable onSelectSlot={onSelect} />);
    const table = await screen.findByRole('table', { name: 'This week' });
    await user.click(within(table).getByRole('button', { name: '9:00 AM, Thursday 26 November 2026' }));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 1, date: '2026-11-26', startTime: '09:00' }));
  });

  it('shows 14 weekdays in the carousel with a Today badge, moved by the day strip and arrow keys', async () => {
    server.use(
      http.get(apiUrl('/public/list'), () =>
        HttpResponse.json(legacyList([publicSlot({ id: 2, date: '2026-11-25', startTime: '2:00 PM' }), publicSlot()])),
      ),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp(<Timetable onSelectSlot={() => {}} />);
    await screen.findByRole('table', { name: 'This week' });
    const region = carousel();
    const slides = within(region).getAllByRole('group', { hidden: true }).filter((slide) => slide.getAttribute('aria-roledescription') === 'slide');
    expect(slides).toHaveLength(14);
    expect(slides[0]).toHaveAccessibleName('Wednesday 25 November 2026 (1 of 14)');
    expect(within(slides[0]).getByText('Today')).toBeInTheDocument();
    expect(slides[3]).toHaveAttribute('aria-label', 'Monday 30 November 2026 (4 of 14)');
    expect(slides[3]).toHaveAttribute('aria-hidden', 'true');
    expect(shownDay(region)).toHaveAccessibleName('Wednesday 25 November 2026: 1 free');

    await user.click(within(region).getByRole('button', { name: 'Thursday 26 November 2026: 1 free' }));
    expect(shownDay(region)).toHaveAccessibleName('Thursday 26 November 2026: 1 free');
    expect(within(region).getByRole('button', { name: '9:00 AM, Thursday 26 November 2026' })).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(shownDay(region)).toHaveAccessibleName('Friday 27 November 2026: None');
    await user.keyboard('{ArrowLeft}');
    expect(shownDay(region)).toHaveAccessibleName('Thursday 26 November 2026: 1 free');
  });

  it('opens the carousel at the first day with a slot when today has none left, once: the parent may go back', async () => {
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot({ date: '2026-11-27' })]))));
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp(<Timetable onSelectSlot={() => {}} />);
    await screen.findByRole('table', { name: 'This week' });
    const region = carousel();
    expect(await within(region).findByRole('button', { name: '9:00 AM, Friday 27 November 2026' })).toBeInTheDocument();
    expect(shownDay(region)).toHaveAccessibleName('Friday 27 November 2026: 1 free');
    await user.click(within(region).getByRole('button', { name: 'Wednesday 25 November 2026: None' }));
    expect(shownDay(region)).toHaveAccessibleName('Wednesday 25 November 2026: None');
    await act(() => jest.advanceTimersByTimeAsync(30_000));
    expect(shownDay(region)).toHaveAccessibleName('Wednesday 25 November 2026: None');
  });

  it('keeps the day it moves to while the track scrolls there: the pages passed on the way never take over', async () => {
    // jsdom has no layout: a 360 px wide track, and a scrollTo that only records where it was asked to go.
    const width = jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(360);
    const asked: number[] = [];
    const scrollTo = jest.fn(function (this: HTMLElement, options?: ScrollToOptions | number) {
      asked.push(typeof options === 'object' ? (options.left ?? 0) : 0);
    });
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', { configurable: true, writable: true, value: scrollTo });
    try {
      server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot({ date: '2026-11-27' })]))));
      renderApp(<Timetable onSelectSlot={() => {}} />);
      const region = await screen.findByRole('region', { name: 'Next 14 weekdays' });
      await within(region).findByRole('button', { name: '9:00 AM, Friday 27 November 2026' });
      expect(asked).toEqual([720]);
      // The opening jump lands at once: no card sliding in from the edge as the page opens.
      expect(scrollTo).toHaveBeenCalledWith({ left: 720, behavior: 'instant' });
      const track = region.querySelector('[aria-roledescription="slide"]')!.parentElement!;
      const swipeTo = async (left: number) => {
        track.scrollLeft = left;
        await act(async () => track.dispatchEvent(new Event('scroll')));
      };
      const fridaySlot = () => within(region).queryByRole('button', { name: '9:00 AM, Friday 27 November 2026' });
      // The smooth scroll passes Wednesday and Thursday: Friday stays the current page, its slot reachable.
      await swipeTo(0);
      expect(fridaySlot()).toBeInTheDocument();
      await swipeTo(360);
      expect(fridaySlot()).toBeInTheDocument();
      expect(shownDay(region)).toHaveAccessibleName('Friday 27 November 2026: 1 free');
      await swipeTo(720);
      expect(fridaySlot()).toBeInTheDocument();
      // Arrived: the parent's own swipe back to Thursday is followed again.
      await swipeTo(360);
      expect(shownDay(region)).toHaveAccessibleName('Thursday 26 November 2026: None');
      expect(fridaySlot()).not.toBeInTheDocument();
    } finally {
      width.mockRestore();
      delete (HTMLElement.prototype as { scrollTo?: unknown }).scrollTo;
    }
  });

  it('never rests between two days: a resize keeps the day shown, a scroll stopping half-way lands on a day', async () => {
    // jsdom has no layout: a 360 px wide track whose scrollTo moves it where asked.
    const width = jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(360);
    const asked: ScrollToOptions[] = [];
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', {
      configurable: true,
      writable: true,
      value: function (this: HTMLElement, options: ScrollToOptions) {
        asked.push(options);
        this.scrollLeft = options.left ?? 0;
      },
    });
    try {
      server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot({ date: '2026-11-27' })]))));
      renderApp(<Timetable onSelectSlot={() => {}} />);
      const region = await screen.findByRole('region', { name: 'Next 14 weekdays' });
      await within(region).findByRole('button', { name: '9:00 AM, Friday 27 November 2026' });
      const track = region.querySelector('[aria-roledescription="slide"]')!.parentElement!;
      const browserScrolls = async (left: number) => {
        track.scrollLeft = left;
        await act(async () => {
          track.dispatchEvent(new Event('scroll'));
          track.dispatchEvent(new Event('scrollend'));
        });
      };
      // The window is resized and the browser re-snaps the track half a page off: Friday stays, put back in place.
      await act(async () => window.dispatchEvent(new Event('resize')));
      await browserScrolls(175 + 360);
      expect(shownDay(region)).toHaveAccessibleName('Friday 27 November 2026: 1 free');
      expect(asked.at(-1)).toEqual({ left: 720, behavior: 'instant' });
      expect(track.scrollLeft).toBe(720);
      // Later, a swipe that stops between Wednesday and Thursday lands on the nearer day.
      await act(() => jest.advanceTimersByTimeAsync(1_000));
      await browserScrolls(500);
      expect(shownDay(region)).toHaveAccessibleName('Thursday 26 November 2026: None');
      expect(track.scrollLeft).toBe(360);
    } finally {
      width.mockRestore();
      delete (HTMLElement.prototype as { scrollTo?: unknown }).scrollTo;
    }
  });

  describe('the day strip and next available (issue 24)', () => {
    // Two slots on Thursday 26th, one on Wednesday 2 December; nothing else in the 14 weekdays.
    const sparse = () =>
      server.use(
        http.get(apiUrl('/public/list'), () =>
          HttpResponse.json(
            legacyList([
              publicSlot({ id: 1, date: '2026-11-26', startTime: '09:00' }),
              publicSlot({ id: 2, date: '2026-11-26', startTime: '10:00' }),
              publicSlot({ id: 3, date: '2026-12-02', startTime: '14:00' }),
            ]),
          ),
        ),
      );

    it('says for each of the 14 weekdays how many slots are free, under its weekday, one tab stop for all', async () => {
      sparse();
      renderApp(<Timetable onSelectSlot={() => {}} />);
      await screen.findByRole('table', { name: 'This week' });
      const strip = within(carousel()).getByRole('toolbar', { name: 'Choose a day' });
      const days = within(strip).getAllByRole('button');
      expect(days).toHaveLength(14);
      // What each day shows (the screen reader hears its whole date instead).
      const shown = (day: HTMLElement) => Array.from(day.querySelectorAll('[aria-hidden="true"]'), (part) => part.textContent).join(' ');
      expect(days.map(shown)).toEqual([
        '25 None', '26 2 free', '27 None', '30 None', '1 None', '2 1 free', '3 None', '4 None', '7 None', '8 None', '9 None', '10 None', '11 None', '14 None',
      ]);
      // Wednesday 25th sits under "Wed": two blank cells (Monday, Tuesday) before it.
      expect(Array.from(strip.children, (cell) => cell.textContent).slice(0, 8)).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', '', '', days[0].textContent]);
      expect(days[0]).toHaveAccessibleName('Wednesday 25 November 2026: None');
      // The day shown is the one pressed, and the only one in the tab order.
      expect(days.filter((day) => day.getAttribute('aria-pressed') === 'true')).toEqual([days[1]]);
      expect(days.map((day) => day.tabIndex)).toEqual(days.map((_, i) => (i === 1 ? 0 : -1)));
    });

    it('follows the keyboard: arrows move the day and the focus with it, Home and End go to the ends', async () => {
      sparse();
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      renderApp(<Timetable onSelectSlot={() => {}} />);
      await screen.findByRole('table', { name: 'This week' });
      const region = carousel();
      within(region).getByRole('button', { name: 'Thursday 26 November 2026: 2 free' }).focus();
      await user.keyboard('{ArrowRight}');
      expect(shownDay(region)).toHaveAccessibleName('Friday 27 November 2026: None');
      expect(shownDay(region)).toHaveFocus();
      await user.keyboard('{End}');
      expect(shownDay(region)).toHaveAccessibleName('Monday 14 December 2026: None');
      expect(shownDay(region)).toHaveFocus();
      await user.keyboard('{Home}');
      expect(shownDay(region)).toHaveAccessibleName('Wednesday 25 November 2026: None');
      expect(shownDay(region)).toHaveFocus();
    });

    it('offers the next day with a free slot on a day without one, and none after the last', async () => {
      sparse();
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      renderApp(<Timetable onSelectSlot={() => {}} />);
      await screen.findByRole('table', { name: 'This week' });
      const region = carousel();
      await user.click(within(region).getByRole('button', { name: 'Friday 27 November 2026: None' }));
      await user.click(within(region).getByRole('button', { name: 'Next available: Wednesday 2 December 2026' }));
      expect(shownDay(region)).toHaveAccessibleName('Wednesday 2 December 2026: 1 free');
      expect(within(region).getByRole('button', { name: '2:00 PM, Wednesday 2 December 2026' })).toBeInTheDocument();
      await user.click(within(region).getByRole('button', { name: 'Thursday 3 December 2026: None' }));
      const slide = region.querySelector<HTMLElement>('[aria-roledescription="slide"]:not([aria-hidden="true"])')!;
      expect(slide).toHaveAccessibleName('Thursday 3 December 2026 (7 of 14)');
      expect(within(slide).getByText('No slot available')).toBeInTheDocument();
      expect(within(slide).queryByRole('button', { name: /^Next available/ })).not.toBeInTheDocument();
    });

    it('shows each school\'s fee before a slot is tapped, and has no axe violations', async () => {
      jest.useFakeTimers({ now: NOW, advanceTimers: true });
      sparse();
      const { container } = renderApp(<Timetable onSelectSlot={() => {}} />);
      await screen.findByRole('table', { name: 'This week' });
      const fees = screen.getByRole('region', { name: 'Assessment fee, paid online when you book' });
      expect(within(fees).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
        'Seri Ilmu Private PrimaryRM 50',
        'Seri Ilmu Private SecondaryRM 75',
        'Seri Ilmu InternationalRM 100',
      ]);
      expect(await axe(container)).toHaveNoViolations();
    });
  });

  it('refreshes itself: a slot taken elsewhere disappears at the next poll', async () => {
    let slots = [publicSlot({ id: 1 }), publicSlot({ id: 2, startTime: '09:30' })];
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList(slots))));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    const table = await screen.findByRole('table', { name: 'This week' });
    expect(within(table).getByRole('button', { name: /^9:30 AM/ })).toBeInTheDocument();
    slots = [publicSlot({ id: 1 })];
    await act(() => jest.advanceTimersByTimeAsync(30_000));
    expect(within(weekTable()).queryByRole('button', { name: /^9:30 AM/ })).not.toBeInTheDocument();
    expect(within(weekTable()).getByRole('button', { name: /^9:00 AM/ })).toBeInTheDocument();
  });

  it.each([
    [404, 'No slots found for the requested criteria'],
    [401, 'Authentication required. Please log in again.'],
    [403, "Access denied. You don't have permission to view slots."],
    [500, 'Server error. Please try again later.'],
  ])('shows the text for HTTP %i with a Retry that recovers', async (status, text) => {
    let failing = true;
    server.use(
      http.get(apiUrl('/public/list'), () =>
        failing ? HttpResponse.json({ success: false, data: null, message: 'x' }, { status }) : HttpResponse.json(legacyList([publicSlot()])),
      ),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp(<Timetable onSelectSlot={() => {}} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(text);
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'This week' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the server message for a 400', async () => {
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json({ success: false, data: null, message: 'Page is out of range' }, { status: 400 })));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Page is out of range');
  });

  it('shows the network text when the server cannot be reached', async () => {
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.error()));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(await screen.findByText('Network error: Cannot connect to server. Please check your connection.')).toBeInTheDocument();
  });

  it('shows the invalid-data text when the answer is not a slot list', async () => {
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json({ success: true, data: 'nope', message: 'ok' })));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid data format received from server');
  });

  it('shows the timeout text when the list takes longer than the request timeout', async () => {
    server.use(
      http.get(apiUrl('/public/list'), async () => {
        await delay(60_000);
        return HttpResponse.json(legacyList([]));
      }),
    );
    renderApp(<Timetable onSelectSlot={() => {}} />);
    await act(() => jest.advanceTimersByTimeAsync(16_000));
    expect(await screen.findByRole('alert')).toHaveTextContent('Request timeout. Please try again.');
  });

  it('warns about a database fallback and still lists slots', async () => {
    server.use(
      http.get(apiUrl('/health'), () =>
        HttpResponse.json({
          success: true,
          message: 'ok',
          data: { status: 'healthy', database: 'database_fallback', databaseDetails: { driver: 'pglite', latencyMs: null }, message: 'Database unavailable' },
        }),
      ),
    );
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(await screen.findByText('Database unavailable. Some features may be limited.')).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'This week' })).toBeInTheDocument();
  });

  it('reports an unreachable database and an unhealthy API', async () => {
    server.use(
      http.get(apiUrl('/health'), () =>
        HttpResponse.json({
          success: true,
          message: 'ok',
          data: { status: 'server_error', database: 'database_unreachable', databaseDetails: { driver: 'pg', latencyMs: null }, message: 'Cannot check database status' },
        }),
      ),
    );
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(await screen.findByText('API Health Issue: server_error')).toBeInTheDocument();
  });

  const failure = (status: number) => HttpResponse.json({ success: false, data: null, error: 'X', message: 'x' }, { status });
  it.each([
    ['404', () => failure(404), 'not_found'],
    ['500', () => failure(500), 'server_error'],
    ['502 from a proxy (not JSON)', () => new HttpResponse('Bad gateway', { status: 502 }), 'server_error'],
    ['401', () => failure(401), 'auth_error'],
    ['403', () => failure(403), 'auth_error'],
    ['no answer (network failure)', () => HttpResponse.error(), 'network_error'],
  ])("says the spec's API Health Issue when /health gets %s, and still lists the slots", async (_, answer, type) => {
    server.use(http.get(apiUrl('/health'), answer));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`API Health Issue: ${type}`);
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'This week' })).toBeInTheDocument();
  });

  it('says the errorType the health answer carries', async () => {
    server.use(
      http.get(apiUrl('/health'), () =>
        HttpResponse.json({
          success: true,
          message: 'ok',
          data: { status: 'healthy', errorType: 'cors_error', database: 'database_healthy', databaseDetails: { driver: 'pg', latencyMs: 1 }, message: 'ok' },
        }),
      ),
    );
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('API Health Issue: cors_error');
  });

  it('warns that it cannot check the database when the health check answers without its state', async () => {
    // A host that answers every path with its page: 200, but no health in it.
    server.use(http.get(apiUrl('/health'), () => HttpResponse.html('<!doctype html><title>Booking</title>')));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(await screen.findByText('Cannot check database status')).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'This week' })).toBeInTheDocument();
  });

  it('has no axe violations once loaded', async () => {
    // axe needs running timers: let the fixed clock advance with real time.
    jest.useFakeTimers({ now: NOW, advanceTimers: true });
    const { container } = renderApp(<Timetable onSelectSlot={() => {}} />);
    await screen.findByRole('table', { name: 'This week' });
    expect(await axe(container)).toHaveNoViolations();
  });
});

describe('Timetable in Bahasa Melayu and 中文', () => {
  afterEach(async () => {
    await act(() => activateLocale('en'));
  });

  const slotsOnThursdayAndFriday = () =>
    server.use(
      http.get(apiUrl('/public/list'), () =>
        HttpResponse.json(legacyList([publicSlot({ id: 1, date: '2026-11-26', startTime: '09:00' }), publicSlot({ id: 2, date: '2026-11-27', startTime: '2:00 PM' })])),
      ),
    );

  it('speaks Malay: weekday names, slot times, notes, week names and the carousel', async () => {
    slotsOnThursdayAndFriday();
    await act(() => activateLocale('ms'));
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(screen.getByText('Memuatkan slot yang tersedia...')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Minggu ini' });
    expect(screen.getByRole('heading', { level: 1, name: 'Tempah lawatan penilaian' })).toBeInTheDocument();
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Isn23 Nov', 'Sel24 Nov', 'Rab25 Nov', 'Kha26 Nov', 'Jum27 Nov']);
    const cells = within(table).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('Tarikh ini telah berlalu!');
    expect(cells[2]).toHaveTextContent('Tiada slot tersedia');
    expect(within(cells[3]).getByRole('button', { name: '9:00 pagi, Khamis, 26 November 2026' })).toHaveTextContent('9:00 pagi');
    expect(within(cells[4]).getByRole('button')).toHaveTextContent('2:00 petang');
    expect(screen.getByText('Slot mesti ditempah sekurang-kurangnya 1 jam lebih awal. Semua masa adalah dalam GMT+8.')).toBeInTheDocument();
    expect(screen.getByText(/^Kemas kini terakhir: 25 Nov 2026, 10:00:\d\d pagi \(GMT\+8\)$/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Minggu berikutnya ›' }));
    await user.click(screen.getByRole('button', { name: 'Minggu berikutnya ›' }));
    expect(screen.getByRole('table', { name: 'Minggu bermula 7 Dis' })).toBeInTheDocument();

    const region = screen.getByRole('region', { name: '14 hari bekerja akan datang' });
    // Nothing left today: the carousel opens on Thursday, the first day with a slot; today's slide has its badge.
    expect(await within(region).findByRole('button', { name: 'Khamis, 26 November 2026: 1 kosong', pressed: true })).toBeInTheDocument();
    const slides = within(region).getAllByRole('group', { hidden: true }).filter((slide) => slide.getAttribute('aria-roledescription') === 'slide');
    expect(slides[0]).toHaveAttribute('aria-label', 'Rabu, 25 November 2026 (1 daripada 14)');
    expect(within(slides[0]).getByText('Hari ini')).toBeInTheDocument();
    expect(within(region).getByRole('toolbar', { name: 'Pilih hari' })).toBeInTheDocument();
    await user.click(within(region).getByRole('button', { name: 'Rabu, 25 November 2026: Tiada' }));
    // Today has none: the next day with a free slot is one tap away.
    await user.click(within(slides[0]).getByRole('button', { name: 'Slot tersedia seterusnya: Khamis, 26 November 2026' }));
    expect(shownDay(region)).toHaveAccessibleName('Khamis, 26 November 2026: 1 kosong');
    // The fees per school before any slot is tapped, as Malay writes ringgit.
    const fees = screen.getByRole('region', { name: 'Yuran penilaian, dibayar dalam talian semasa menempah' });
    expect(within(fees).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Sekolah Rendah Swasta Seri IlmuRM50',
      'Sekolah Menengah Swasta Seri IlmuRM75',
      'Sekolah Antarabangsa Seri IlmuRM100',
    ]);
  });

  it.each([
    ['ms', 'Semua masa untuk beberapa minggu akan datang telah diambil. Sertai senarai menunggu dan kami akan menghantar e-mel apabila ada masa yang kosong.', 'Sertai senarai menunggu'],
    ['zh', '未来几周的所有时段均已约满。加入候补名单，有时段空出时我们会发电子邮件通知您。', '加入候补名单'],
  ] as const)('fully booked in %s: the full notice and the waitlist first, in the language', async (locale, full, join) => {
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([]))));
    await act(() => activateLocale(locale));
    renderApp(<Timetable onSelectSlot={() => {}} onJoinWaitlist={() => {}} />);
    const notice = await screen.findByText(full);
    const button = screen.getByRole('button', { name: join });
    expect(notice.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(button.compareDocumentPosition(within(screen.getByRole('region', { name: /14/ })).getByRole('toolbar')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('speaks Chinese: weekday names, slot times and notes', async () => {
    slotsOnThursdayAndFriday();
    await act(() => activateLocale('zh'));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    const table = await screen.findByRole('table', { name: '本周' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['周一11月23日', '周二11月24日', '周三11月25日', '周四11月26日', '周五11月27日']);
    expect(within(table).getAllByRole('cell')[1]).toHaveTextContent('该日期已过！');
    expect(within(table).getByRole('button', { name: '2026年11月26日 星期四，上午9:00' })).toHaveTextContent('上午9:00');
    expect(within(table).getByRole('button', { name: /下午2:00$/ })).toHaveTextContent('下午2:00');
    expect(screen.getByText('时段须至少提前1小时预约。所有时间均为GMT+8（马来西亚时间）。')).toBeInTheDocument();
    expect(screen.getByText(/^最后更新：2026年11月25日 上午10:00:\d\d（GMT\+8）$/)).toBeInTheDocument();
    const region = screen.getByRole('region', { name: '接下来14个工作日' });
    expect(within(region).getByRole('button', { name: '2026年11月27日 星期五：余1个' })).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: '2026年11月30日 星期一：无' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '评估费用（预约时在线支付）' })).toHaveTextContent('Seri Ilmu 国际学校RM100');
  });

  it('says a slot list error and the health notices in the language, with its Retry', async () => {
    server.use(
      http.get(apiUrl('/public/list'), () => HttpResponse.json({ success: false, data: null, message: 'x' }, { status: 500 })),
      http.get(apiUrl('/health'), () => HttpResponse.html('<!doctype html><title>Booking</title>')),
    );
    await act(() => activateLocale('ms'));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Ralat pelayan. Sila cuba lagi kemudian.');
    expect(within(alert).getByRole('button', { name: 'Cuba lagi' })).toBeInTheDocument();
    expect(await screen.findByText('Tidak dapat menyemak status pangkalan data')).toBeInTheDocument();
  });

  it.each([
    ['ms', 'Sistem tempahan sedang menghadapi masalah (not_found).'],
    ['zh', '预约系统出现问题（not_found）。'],
  ] as const)('says the API Health Issue of a /health that answers 404 in %s', async (locale, text) => {
    server.use(http.get(apiUrl('/health'), () => HttpResponse.json({ success: false, data: null }, { status: 404 })));
    await act(() => activateLocale(locale));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
  });

  it('says a database problem in Chinese rather than the server\'s English words', async () => {
    server.use(
      http.get(apiUrl('/health'), () =>
        HttpResponse.json({
          success: true,
          message: 'ok',
          data: { status: 'healthy', database: 'database_error', databaseDetails: { driver: 'pg', latencyMs: null }, message: 'Database answered with an error' },
        }),
      ),
    );
    await act(() => activateLocale('zh'));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    expect(await screen.findByText('预约系统的数据库出现问题，部分功能可能受限。')).toBeInTheDocument();
    expect(within(screen.getByRole('status')).getByRole('button', { name: '重试' })).toBeInTheDocument();
  });
});

describe('places left on a time that seats several children (issue 37)', () => {
  afterEach(async () => {
    await act(() => activateLocale('en'));
  });

  // Thursday: a time with 2 seats free, one with its last seat free; Friday: a one-seat time (no placesLeft).
  const seatedTimes = () =>
    server.use(
      http.get(apiUrl('/public/list'), () =>
        HttpResponse.json(
          legacyList([
            publicSlot({ id: 11, date: '2026-11-26', startTime: '09:00', placesLeft: 2 }),
            publicSlot({ id: 14, date: '2026-11-26', startTime: '10:00', placesLeft: 1 }),
            publicSlot({ id: 20, date: '2026-11-27', startTime: '2:00 PM' }),
          ]),
        ),
      ),
    );

  it('says the seats left under the time on the desk and the phone, and in the button\'s name; a one-seat time as before', async () => {
    seatedTimes();
    const onSelect = jest.fn();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp(<Timetable onSelectSlot={onSelect} />);
    const table = await screen.findByRole('table', { name: 'This week' });
    const [, , , thursday, friday] = within(table).getAllByRole('cell');
    expect(within(thursday).getAllByRole('button').map((b) => b.textContent)).toEqual(['9:00 AM2 places left', '10:00 AM1 place left']);
    expect(within(thursday).getByRole('button', { name: '9:00 AM, Thursday 26 November 2026, 2 places left' })).toBeInTheDocument();
    expect(within(thursday).getByRole('button', { name: '10:00 AM, Thursday 26 November 2026, 1 place left' })).toBeInTheDocument();
    expect(within(friday).getByRole('button', { name: '2:00 PM, Friday 27 November 2026' })).toHaveTextContent(/^2:00 PM$/);

    // The phone opens on Thursday, the first day with a time, and says the same.
    const region = carousel();
    expect(await within(region).findByRole('button', { name: '9:00 AM, Thursday 26 November 2026, 2 places left' })).toHaveTextContent('9:00 AM2 places left');
    expect(within(region).getByRole('button', { name: '10:00 AM, Thursday 26 November 2026, 1 place left' })).toBeInTheDocument();

    await user.click(within(thursday).getByRole('button', { name: /^9:00 AM/ }));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 11, date: '2026-11-26', startTime: '09:00' }));
  });

  it.each([
    ['ms', 'Minggu ini', '9:00 pagi, Khamis, 26 November 2026, 2 tempat lagi', '9:00 pagi2 tempat lagi', '10:00 pagi1 tempat lagi', '2:00 petang, Jumaat, 27 November 2026'],
    ['zh', '本周', '2026年11月26日 星期四，上午9:00，还剩 2 个名额', '上午9:00还剩 2 个名额', '上午10:00还剩 1 个名额', '2026年11月27日 星期五，下午2:00'],
  ] as const)('says the seats left in %s', async (locale, week, name, two, one, oneSeat) => {
    seatedTimes();
    await act(() => activateLocale(locale));
    renderApp(<Timetable onSelectSlot={() => {}} />);
    const table = await screen.findByRole('table', { name: week });
    const [, , , thursday, friday] = within(table).getAllByRole('cell');
    expect(within(thursday).getAllByRole('button').map((b) => b.textContent)).toEqual([two, one]);
    expect(within(thursday).getByRole('button', { name })).toBeInTheDocument();
    expect(within(friday).getByRole('button')).toHaveAccessibleName(oneSeat);
    expect(within(friday).getByRole('button').textContent).not.toMatch(/tempat|名额/);
  });
});
