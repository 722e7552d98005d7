import { normaliseSlotList } from './normaliseSlotList';

const slot = (id: number, date = '2026-11-26', startTime = '09:00') => ({
  id,
  date,
  startTime,
  endTime: '09:30',
  isBooked: false,
  status: 'available',
});

describe('normaliseSlotList', () => {
  it('reads a flat array', () => {
    expect(normaliseSlotList([slot(1), slot(2)])?.map((s) => s.id)).toEqual([1, 2]);
  });

  it('reads an envelope whose data is a flat array', () => {
    expect(normaliseSlotList({ success: true, data: [slot(3)], message: 'ok' })?.map((s) => s.id)).toEqual([3]);
  });

  it('reads the legacy shape: data.slots with pagination and filters', () => {
    const body = {
      success: true,
      message: 'ok',
      data: {
        slots: [slot(4), slot(5)],
        pagination: { total: 2, page: 1, limit: 100, totalPages: 1 },
        filters: { from: '2026-11-25', leadHours: 1, timezone: 'Asia/Singapore' },
      },
    };
    expect(normaliseSlotList(body)?.map((s) => s.id)).toEqual([4, 5]);
  });

  it('reads the grouped shape: week number, then date, then slots', () => {
    const body = {
      success: true,
      message: 'ok',
      data: {
        '48': { '2026-11-26': [{ ...slot(6), week: 48 }], '2026-11-27': [{ ...slot(7, '2026-11-27'), week: 48 }] },
        '49': { '2026-12-01': [{ ...slot(8, '2026-12-01'), week: 49 }] },
      },
    };
    expect(normaliseSlotList(body)?.map((s) => s.id)).toEqual([6, 7, 8]);
  });

  it('reads an empty grouped object as no slots', () => {
    expect(normaliseSlotList({ success: true, data: {}, message: 'ok' })).toEqual([]);
  });

  it('drops entries that are not objects', () => {
    expect(normaliseSlotList([slot(1), null, 'x', 3])?.map((s) => s.id)).toEqual([1]);
  });

  it.each([
    ['null', null],
    ['a string', 'oops'],
    ['an envelope with null data', { success: false, data: null, message: 'x' }],
    ['an object with non-list values', { success: true, data: { slots: 'none' }, message: 'x' }],
    ['a week whose days are not lists', { '48': { '2026-11-26': 'x' } }],
  ])('gives null for %s', (_name, body) => {
    expect(normaliseSlotList(body)).toBeNull();
  });
});
