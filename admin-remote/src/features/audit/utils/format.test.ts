import { detailText, formatAuditTime } from './format';

describe('audit formatting', () => {
  it('shows instants in GMT+8', () => {
    expect(formatAuditTime('2026-03-01T16:00:00.000Z')).toBe('Mar 02, 2026, 12:00:00 AM');
  });

  it('words the detail of each kind of record', () => {
    expect(detailText({ action: 'login', detail: null })).toBe('');
    expect(detailText({ action: 'parent_rescheduled', detail: { from: '2026-03-10T00:30:00.000Z', to: '2026-03-11T06:00:00.000Z' } })).toBe(
      'Mar 10, 2026, 8:30:00 AM → Mar 11, 2026, 2:00:00 PM',
    );
    expect(detailText({ action: 'booking_cancelled_by_staff', detail: { refund: true, refundSen: 7550 } })).toBe('with refund; RM 75.50');
    expect(detailText({ action: 'booking_cancelled_by_staff', detail: { refund: false, refundSen: 0 } })).toBe('no refund');
    expect(detailText({ action: 'refund', detail: { amountSen: 7500 } })).toBe('RM 75');
    expect(
      detailText({ action: 'slot_created', detail: { count: 15, fromDate: '2026-03-02', toDate: '2026-03-20', startTimes: ['08:30', '14:00'] } }),
    ).toBe('15 slots, 2026-03-02 to 2026-03-20 at 08:30, 14:00');
    expect(detailText({ action: 'booking_direct', detail: { slotId: 4, start: '2026-03-10T00:30:00.000Z', school: 'Seri Ilmu' } })).toBe(
      'Mar 10, 2026, 8:30:00 AM; Seri Ilmu',
    );
  });
});
