import { dayRange, detailText, formatAuditTime, targetSummary } from './format';

describe('audit formatting', () => {
  it('shows instants in GMT+8', () => {
    expect(formatAuditTime('2026-03-01T16:00:00.000Z')).toBe('2 Mar 2026, 12:00:00 AM');
  });

  it('words the detail of each kind of record', () => {
    expect(detailText({ action: 'login', detail: null })).toBe('');
    expect(
      detailText({ action: 'privacy_person_exported', detail: { email: 'a@example.com', format: 'csv', found: { bookings: 2, payments: 1, consents: 1, mails: 3 } } }),
    ).toBe('found 2 booking(s), 1 payment(s), 0 waitlist entry(ies), 1 consent(s), 3 mail(s); CSV');
    expect(detailText({ action: 'parent_rescheduled', detail: { from: '2026-03-10T00:30:00.000Z', to: '2026-03-11T06:00:00.000Z' } })).toBe(
      '10 Mar 2026, 8:30 AM → 11 Mar 2026, 2:00 PM',
    );
    expect(detailText({ action: 'booking_cancelled_by_staff', detail: { refund: true, refundSen: 7550 } })).toBe('with refund; RM 75.50');
    expect(detailText({ action: 'booking_cancelled_by_staff', detail: { refund: false, refundSen: 0 } })).toBe('no refund');
    expect(detailText({ action: 'refund', detail: { amountSen: 7500 } })).toBe('RM 75');
    expect(
      detailText({ action: 'slot_created', detail: { count: 15, fromDate: '2026-03-02', toDate: '2026-03-20', startTimes: ['08:30', '14:00'] } }),
    ).toBe('15 slots, 2 Mar – 20 Mar 2026 at 8:30 AM, 2:00 PM');
    expect(detailText({ action: 'booking_direct', detail: { slotId: 4, start: '2026-03-10T00:30:00.000Z', school: 'Seri Ilmu' } })).toBe(
      '10 Mar 2026, 8:30 AM; Seri Ilmu',
    );
  });

  it('summarises several slots created at once, each slot behind the summary, and says other targets as they are', () => {
    expect(dayRange('2026-12-21', '2027-01-01')).toBe('21 Dec 2026 – 1 Jan 2027');
    expect(dayRange('2026-12-21', '2026-12-31')).toBe('21 Dec – 31 Dec 2026');
    const created = {
      action: 'slot_created' as const,
      target: '101,102',
      detail: {
        count: 2,
        fromDate: '2026-12-21',
        toDate: '2027-01-01',
        startTimes: ['08:30'],
        slots: [
          { id: 101, start: '2026-12-21T00:30:00.000Z', end: '2026-12-21T01:00:00.000Z' },
          { id: 102, start: '2027-01-01T00:30:00.000Z', end: '2027-01-01T01:00:00.000Z' },
        ],
      },
    };
    expect(targetSummary(created)).toEqual({
      text: '2 slots, 21 Dec 2026 – 1 Jan 2027 at 8:30 AM',
      items: ['#101 · Mon 21 Dec 2026, 8:30 AM – 9:00 AM', '#102 · Fri 1 Jan 2027, 8:30 AM – 9:00 AM'],
    });
    expect(targetSummary({ action: 'slot_deleted', target: '42', detail: { start: '2026-03-10T00:30:00.000Z' } })).toEqual({ text: '42', items: [] });
  });
});
