import { formatContactNumber, formatSlotTimeRange, isBookedSlot, slotSortKey } from './format';

describe('dashboard slot helpers', () => {
  it('shows a contact number as Malaysians write it, and none as Not provided', () => {
    expect(formatContactNumber('0123456789')).toBe('012-345 6789');
    expect(formatContactNumber('+6591234567')).toBe('+6591234567');
    expect(formatContactNumber(null)).toBe('Not provided');
    expect(formatContactNumber('   ')).toBe('Not provided');
  });

  it("writes a slot's times as a range and sorts by day, then start", () => {
    expect(formatSlotTimeRange({ startTime: '11:45', endTime: '12:15' })).toBe('11:45 AM – 12:15 PM');
    expect(slotSortKey({ date: '2026-11-23T08:30:00+08:00', startTime: '8:30 AM' }) < slotSortKey({ date: '2026-11-23', startTime: '13:00' })).toBe(true);
  });

  it('counts a slot as booked when it has a visitor name', () => {
    expect(isBookedSlot({ visitorName: 'A' })).toBe(true);
    expect(isBookedSlot({ visitorName: null })).toBe(false);
  });
});
