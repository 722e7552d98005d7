import { dayOf, formatDay, formatInstant, formatInstantRange, formatTime, formatTimeRange, formatWeekday } from './format';

describe('lib/format: one date style on the staff side, GMT+8', () => {
  it("writes days as '26 Nov 2026', with the weekday where staff plan by it", () => {
    expect(formatDay('2026-11-26')).toBe('26 Nov 2026');
    expect(formatDay('2026-11-26T08:30:00+08:00')).toBe('26 Nov 2026');
    // 4 PM UTC is already the next day in GMT+8.
    expect(formatDay('2026-11-25T16:00:00Z')).toBe('26 Nov 2026');
    expect(dayOf('2026-11-25T15:59:00Z')).toBe('2026-11-25');
    expect(formatWeekday('2026-11-26')).toBe('Thu 26 Nov 2026');
    expect(formatDay('not a day')).toBe('not a day');
  });

  it('writes 12-hour times from either notation, and ranges with an en dash', () => {
    expect(formatTime('08:30')).toBe('8:30 AM');
    expect(formatTime('13:00')).toBe('1:00 PM');
    expect(formatTime('12:00 AM')).toBe('12:00 AM');
    expect(formatTime('nonsense')).toBe('nonsense');
    expect(formatTimeRange('11:45', '12:15')).toBe('11:45 AM – 12:15 PM');
    expect(formatInstantRange('2026-11-23T05:00:00.000Z', '2026-11-23T05:30:00.000Z')).toBe('1:00 PM – 1:30 PM');
  });

  it('writes an instant as day and time in GMT+8, with seconds where a record keeps them', () => {
    expect(formatInstant('2026-11-25T08:41:13.000Z')).toBe('25 Nov 2026, 4:41 PM');
    expect(formatInstant('2026-11-25T08:41:13.000Z', { seconds: true })).toBe('25 Nov 2026, 4:41:13 PM');
    expect(formatInstant('2026-03-01T16:00:00.000Z')).toBe('2 Mar 2026, 12:00 AM');
  });
});
