import { byDate, freeSlots, withCurrentTime } from './freeSlots';

// Wednesday 25 November 2026, 10:00 GMT+8.
const NOW = Date.parse('2026-11-25T10:00:00+08:00');
const list = (slots: unknown[]) => ({ success: true, message: 'Slots retrieved', data: { slots, pagination: { total: slots.length } } });

describe('free slots for a move', () => {
  it('keeps what the timetable offers: not booked, not held, no visitor, at least an hour ahead; sorted', () => {
    const slots = freeSlots(
      list([
        { id: 5, date: '2026-11-27', startTime: '09:00', endTime: '09:30', isBooked: false },
        { id: 1, date: '2026-11-25', startTime: '10:30', endTime: '11:00', isBooked: false },
        { id: 2, date: '2026-11-25', startTime: '11:00', endTime: '11:30', isBooked: false },
        { id: 3, date: '2026-11-26', startTime: '09:00', isBooked: true },
        { id: 4, date: '2026-11-26', startTime: '09:30', status: 'reserved' },
        { id: 6, date: '2026-11-26', startTime: '10:00', visitorName: 'Someone' },
        { id: 7, date: '2026-11-26', startTime: 'soon' },
        { date: '2026-11-26', startTime: '11:00' },
      ]),
      NOW,
    );
    expect(slots.map((slot) => slot.id)).toEqual([2, 5]);
    expect(byDate(slots).map((day) => day.date)).toEqual(['2026-11-25', '2026-11-27']);
  });

  it('reads a bare array and ignores an answer it does not know', () => {
    expect(freeSlots([{ id: 9, date: '2026-11-26', startTime: '9:00 AM' }], NOW).map((slot) => slot.startMinutes)).toEqual([540]);
    expect(freeSlots({ nothing: true }, NOW)).toEqual([]);
    expect(freeSlots(undefined, NOW)).toEqual([]);
  });

  it('puts the booking\'s own time in its place, marked current, and drops a free slot at that same time', () => {
    const free = freeSlots(
      list([
        { id: 1, date: '2026-11-26', startTime: '10:00', endTime: '10:30' },
        { id: 2, date: '2026-11-27', startTime: '09:00', endTime: '09:30' },
        { id: 3, date: '2026-11-27', startTime: '11:00', endTime: '11:30' },
      ]),
      NOW,
    );
    // Friday 27 November, 9:00 GMT+8.
    const times = withCurrentTime(free, '2026-11-27T01:00:00.000Z');
    expect(times.map((slot) => [slot.date, slot.startMinutes, slot.current ?? false])).toEqual([
      ['2026-11-26', 600, false],
      ['2026-11-27', 540, true],
      ['2026-11-27', 660, false],
    ]);
    expect(withCurrentTime([], '2026-11-30T08:30:00.000Z').map((slot) => [slot.date, slot.startMinutes])).toEqual([['2026-11-30', 990]]);
  });
});
