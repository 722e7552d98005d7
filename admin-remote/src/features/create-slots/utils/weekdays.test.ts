import { daysInRange, firstWeekdayFromTomorrow, slotTimes, tomorrowInMY } from './weekdays';

describe('create-slots day arithmetic', () => {
  it('takes tomorrow in GMT+8, not in UTC', () => {
    // 17:00 UTC on the 22nd is 01:00 on the 23rd in Malaysia, so tomorrow is the 24th.
    expect(tomorrowInMY(Date.parse('2026-11-22T17:00:00Z'))).toBe('2026-11-24');
    expect(tomorrowInMY(Date.parse('2026-11-22T15:00:00Z'))).toBe('2026-11-23');
  });

  it('lists every day of the range inclusive and skips weekends for slots', () => {
    // Fri 27 Nov 2026 to Tue 1 Dec 2026.
    expect(daysInRange('2026-11-27', '2026-12-01')).toEqual(['2026-11-27', '2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01']);
  });

  it('gives nothing for a reversed or unreadable range', () => {
    expect(daysInRange('2026-11-25', '2026-11-24')).toEqual([]);
    expect(daysInRange('', '2026-11-24')).toEqual([]);
    expect(daysInRange('2026-02-30', '2026-03-02')).toEqual([]);
  });

  it('makes each slot 30 minutes long and refuses one that would run past midnight', () => {
    expect(slotTimes('08:30')).toEqual({ startTime: '08:30', endTime: '09:00' });
    expect(slotTimes('9:45')).toEqual({ startTime: '09:45', endTime: '10:15' });
    expect(slotTimes('23:29')).toEqual({ startTime: '23:29', endTime: '23:59' });
    expect(slotTimes('23:30')).toBeNull();
    expect(slotTimes('')).toBeNull();
  });
});

describe('firstWeekdayFromTomorrow', () => {
  // GMT+8 days: a Thursday, a Friday, a Saturday.
  it.each([
    ['2026-11-26T10:00:00+08:00', '2026-11-27'],
    ['2026-11-27T10:00:00+08:00', '2026-11-30'],
    ['2026-11-28T23:30:00+08:00', '2026-11-30'],
  ])('on %s the dialog opens on %s', (now, expected) => {
    expect(firstWeekdayFromTomorrow(new Date(now))).toBe(expected);
  });
});
