import fc from 'fast-check';
import { dayjs } from '../test-utils/zonedDayjs';
import { TIMEZONE } from './constants';
import { addDays, dateInMY, formatClock, formatDayInMY, formatInMY, isBookableTime, midnightInMY, slotStartMs, todayInMY, weekdayOf } from './gmt8';
import { dayInMY, inMY, slotStart } from './time';

// The dayjs-free helpers (the public page's first load) against dayjs with the time-zone database: same days, same
// words, for any instant from 1990 to 2100.
const instants = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) });
const zoned = (ms: number) => dayjs(ms).tz(TIMEZONE);

describe('GMT+8 without dayjs', () => {
  it('reads the same GMT+8 date, weekday and English words as dayjs in Asia/Kuala_Lumpur', () => {
    fc.assert(
      fc.property(instants, (ms) => {
        const reference = zoned(ms);
        expect(dateInMY(ms)).toBe(reference.format('YYYY-MM-DD'));
        expect(todayInMY(ms)).toBe(reference.format('YYYY-MM-DD'));
        expect(weekdayOf(dateInMY(ms))).toBe(reference.day());
        expect(formatInMY(ms, 'stamp')).toBe(reference.format('D MMM YYYY, h:mm:ss A'));
        expect(formatInMY(ms, 'longDate')).toBe(reference.format('dddd D MMMM YYYY'));
        expect(formatInMY(new Date(ms), 'time')).toBe(reference.format('h:mm A'));
        expect(formatInMY(inMY(ms), 'weekday')).toBe(reference.format('ddd'));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts days and slot starts as dayjs does', () => {
    fc.assert(
      fc.property(instants, fc.integer({ min: -400, max: 400 }), fc.integer({ min: 0, max: 23 * 60 + 59 }), (ms, days, minutes) => {
        const date = dateInMY(ms);
        expect(addDays(date, days)).toBe(dayInMY(date).add(days, 'day').format('YYYY-MM-DD'));
        expect(midnightInMY(date)).toBe(dayInMY(date).valueOf());
        expect(formatDayInMY(date, 'dayMonth')).toBe(dayInMY(date).format('D MMM'));
        const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        expect(slotStartMs(date, time)).toBe(slotStart(date, time)!.valueOf());
        expect(formatClock(minutes)).toBe(dayInMY('2000-01-03').add(minutes, 'minute').format('h:mm A'));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what is not a date or a time', () => {
    expect(midnightInMY('2026-02-30')).toBeNaN();
    expect(midnightInMY('tomorrow')).toBeNaN();
    expect(slotStartMs('2026-03-02', '25:00')).toBeNaN();
    expect(isBookableTime('2026-02-30', '10:00', 0)).toBe(false);
  });

  it('keeps the one-hour lead time to the millisecond', () => {
    const start = slotStartMs('2026-03-02', '10:00');
    expect(isBookableTime('2026-03-02', '10:00', start - 3_600_000)).toBe(true);
    expect(isBookableTime('2026-03-02', '10:00', start - 3_600_000 + 1)).toBe(false);
  });
});
