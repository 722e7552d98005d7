import { dayjs } from '../test-utils/zonedDayjs';
import { TIMEZONE } from './constants';
import { parseSlotTime, isBookableTime, formatMinutes12, todayInMY, isWeekend } from './gmt8';
import { slotStart, dayInMY, inMY } from './time';


describe('parseSlotTime', () => {
  it.each([
    ['12:00 AM', 0],
    ['12:30 AM', 30],
    ['12:00 PM', 720],
    ['1:15 PM', 795],
    ['08:30', 510],
    ['23:59', 1439],
    ['9:05am', 545],
  ])('%s is %i minutes after midnight', (text, minutes) => {
    expect(parseSlotTime(text)).toBe(minutes);
  });

  it.each(['', '24:00', '13:00 PM', '0:30 AM', 'noon', '8.30', null, undefined])('rejects %p', (text) => {
    expect(parseSlotTime(text as string)).toBeNull();
  });
});

describe('bookable time in GMT+8', () => {
  // 2026-11-23 is a Monday; 10:00 in GMT+8 is 02:00 UTC.
  const now = Date.parse('2026-11-23T02:00:00Z');
  it('needs at least one hour ahead', () => {
    expect(isBookableTime('2026-11-23', '11:00', now)).toBe(true);
    expect(isBookableTime('2026-11-23', '10:59', now)).toBe(false);
    expect(isBookableTime('2026-11-23', '11:00 AM', now)).toBe(true);
  });
  it('is never bookable when the time is unparseable', () => {
    expect(isBookableTime('2026-11-24', 'soon', now)).toBe(false);
  });
  it('reads the date part of an ISO date-time', () => {
    expect(slotStart('2026-11-24T00:00:00.000Z', '08:30')?.toISOString()).toBe('2026-11-24T00:30:00.000Z');
  });
  it('formats and tells today and weekends in GMT+8', () => {
    expect(formatMinutes12(0)).toBe('12:00 AM');
    expect(formatMinutes12(750)).toBe('12:30 PM');
    expect(todayInMY(Date.parse('2026-11-22T16:30:00Z'))).toBe('2026-11-23');
    expect(isWeekend('2026-11-22')).toBe(true);
    expect(isWeekend('2026-11-23')).toBe(false);
  });
});

describe('GMT+8 as a fixed offset', () => {
  it('agrees with the time-zone database on every day of two years, at midnight and at a slot time', () => {
    for (let day = dayjs.utc('2026-01-01'); day.isBefore('2028-01-01'); day = day.add(1, 'day')) {
      const date = day.format('YYYY-MM-DD');
      const fromDatabase = dayjs.tz(date, 'YYYY-MM-DD', TIMEZONE);
      expect(dayInMY(date).valueOf()).toBe(fromDatabase.valueOf());
      expect(dayInMY(date).format('dddd D MMMM YYYY HH:mm Z')).toBe(fromDatabase.format('dddd D MMMM YYYY HH:mm Z'));
      expect(slotStart(date, '3:30 PM')?.valueOf()).toBe(fromDatabase.add(930, 'minute').valueOf());
    }
  });

  it('shows an instant as the wall clock in Kuala Lumpur', () => {
    expect(inMY(Date.parse('2026-11-22T16:30:00Z')).format('YYYY-MM-DD HH:mm')).toBe('2026-11-23 00:30');
    expect(inMY(Date.parse('2026-11-22T16:30:00Z')).startOf('day').toISOString()).toBe('2026-11-22T16:00:00.000Z');
  });

  it.each(['2026-02-30', '2026-13-01', '2026-1-5', 'tomorrow', ''])('refuses the date %p', (date) => {
    expect(dayInMY(date).isValid()).toBe(false);
    expect(slotStart(date, '08:30')).toBeNull();
  });
});
