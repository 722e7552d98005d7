import { formatContactNumber, formatSlotDate, formatSlotTime, formatSlotTimeRange, isBookedSlot, slotDayMY } from './format';

describe('dashboard formatting', () => {
  it("shows dates as 'MMM DD, YYYY' in GMT+8", () => {
    expect(formatSlotDate('2026-11-23T08:30:00+08:00')).toBe('Nov 23, 2026');
    expect(formatSlotDate('2026-11-23')).toBe('Nov 23, 2026');
    expect(formatSlotDate('2026-11-22T16:00:00Z')).toBe('Nov 23, 2026');
    expect(slotDayMY('2026-11-22T15:59:00Z')).toBe('2026-11-22');
  });

  it('shows times in 12-hour form from either notation', () => {
    expect(formatSlotTime('08:30')).toBe('8:30 AM');
    expect(formatSlotTime('13:00')).toBe('1:00 PM');
    expect(formatSlotTime('12:00 AM')).toBe('12:00 AM');
    expect(formatSlotTime('nonsense')).toBe('nonsense');
    expect(formatSlotTimeRange({ startTime: '11:45', endTime: '12:15' })).toBe('11:45 AM - 12:15 PM');
  });

  it('formats ten-digit contact numbers as (xxx) xxx-xxxx, others as given, none as Not provided', () => {
    expect(formatContactNumber('0123456789')).toBe('(012) 345-6789');
    expect(formatContactNumber('012 345 6789')).toBe('(012) 345-6789');
    expect(formatContactNumber('60123456789')).toBe('60123456789');
    expect(formatContactNumber('+60 12-345 6789')).toBe('+60 12-345 6789');
    expect(formatContactNumber(null)).toBe('Not provided');
    expect(formatContactNumber('   ')).toBe('Not provided');
  });

  it('counts a slot as booked when it has a visitor name', () => {
    expect(isBookedSlot({ visitorName: 'A' })).toBe(true);
    expect(isBookedSlot({ visitorName: null })).toBe(false);
  });
});
