import { filterDisplayableSlots, isDisplayable } from './displayFilter';

// Wednesday 25 November 2026, 10:00 in GMT+8 (02:00 UTC).
const NOW = new Date('2026-11-25T10:00:00+08:00');

const base = { id: 1, date: '2026-11-26', startTime: '09:00', endTime: '09:30', isBooked: false, status: 'available' };

describe('slot display filter (spec section 5)', () => {
  it('shows an available slot more than an hour ahead', () => {
    expect(isDisplayable(base, NOW)).toBe(true);
  });

  it.each([
    ['id is missing', { ...base, id: undefined }],
    ['date is missing', { ...base, date: undefined }],
    ['startTime is missing', { ...base, startTime: '' }],
    ['it is booked', { ...base, isBooked: true }],
    ['it has a visitor name', { ...base, visitorName: 'Aisyah' }],
    ['it is reserved', { ...base, status: 'reserved' }],
    ['its time cannot be parsed', { ...base, startTime: 'nine' }],
  ])('hides a slot when %s', (_why, slot) => {
    expect(isDisplayable(slot, NOW)).toBe(false);
  });

  it('keeps a slot exactly one hour ahead and hides one 59 minutes ahead (GMT+8)', () => {
    expect(isDisplayable({ ...base, date: '2026-11-25', startTime: '11:00' }, NOW)).toBe(true);
    expect(isDisplayable({ ...base, date: '2026-11-25', startTime: '10:59' }, NOW)).toBe(false);
  });

  it('reads 12-hour times: 12:00 PM is noon, 12:30 AM is just after midnight', () => {
    // 11:30 is 1.5 h ahead; 12:00 PM (noon) is 2 h ahead; 12:30 AM today has passed.
    expect(isDisplayable({ ...base, date: '2026-11-25', startTime: '12:00 PM' }, NOW)).toBe(true);
    expect(isDisplayable({ ...base, date: '2026-11-25', startTime: '12:30 AM' }, NOW)).toBe(false);
    expect(isDisplayable({ ...base, date: '2026-11-26', startTime: '12:30 AM' }, NOW)).toBe(true);
  });

  it('reads 24-hour midnight 00:00 as the start of the day', () => {
    expect(isDisplayable({ ...base, date: '2026-11-25', startTime: '00:00' }, NOW)).toBe(false);
    expect(isDisplayable({ ...base, date: '2026-11-26', startTime: '00:00' }, NOW)).toBe(true);
  });

  it('sorts the kept slots by date then time, noon after 11 AM and before 1 PM', () => {
    const kept = filterDisplayableSlots(
      [
        { ...base, id: 4, date: '2026-11-27', startTime: '08:30' },
        { ...base, id: 3, startTime: '1:00 PM' },
        { ...base, id: 2, startTime: '12:00 PM' },
        { ...base, id: 1, startTime: '11:00' },
        { ...base, id: 5, isBooked: true },
      ],
      NOW,
    );
    expect(kept.map((s) => [s.id, s.startMinutes])).toEqual([
      [1, 660],
      [2, 720],
      [3, 780],
      [4, 510],
    ]);
  });

  it("keeps a time's free seats when it seats several children (issue 37), and nothing when the list gives none or junk", () => {
    const kept = filterDisplayableSlots([{ ...base, id: 1, placesLeft: 2 }, { ...base, id: 2, startTime: '10:00' }, { ...base, id: 3, startTime: '11:00', placesLeft: '2' }], NOW);
    expect(kept.map((s) => s.placesLeft)).toEqual([2, undefined, undefined]);
    expect('placesLeft' in kept[1]).toBe(false);
  });
});
