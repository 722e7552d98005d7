import { actorText, eventSummary, refundText } from './history';

describe('booking history wording', () => {
  it('names who did it: the parent, a staff member by email, or automatic for the system', () => {
    expect(actorText('parent')).toBe('by parent');
    expect(actorText('office@seriilmu.edu.my')).toBe('by office@seriilmu.edu.my');
    expect(actorText('system')).toBe('(automatic)');
  });

  it('says where a reschedule moved the visit from and to, and how much a refund gives back', () => {
    const base = { at: '2026-11-12T06:00:00.000Z', fromStart: null, toStart: null, amountSen: null };
    expect(
      eventSummary({ ...base, kind: 'rescheduled', actor: 'parent', fromStart: '2026-11-23T01:00:00.000Z', toStart: '2026-11-24T02:30:00.000Z' }),
    ).toBe('Rescheduled by parent: from 23 Nov 2026, 9:00 AM to 24 Nov 2026, 10:30 AM');
    expect(eventSummary({ ...base, kind: 'refunded', actor: 'system', amountSen: 7550 })).toBe('Refunded (automatic): RM 75.50');
    expect(eventSummary({ ...base, kind: 'cancelled', actor: 'office@seriilmu.edu.my' })).toBe('Cancelled by office@seriilmu.edu.my');
  });

  it('words the refund of a booking: amount and state, No refund for a cancel without one, nothing while booked', () => {
    expect(refundText('cancelled', { amountSen: 10000, state: 'refunded' })).toBe('RM 100 refunded');
    expect(refundText('cancelled', { amountSen: 10000, state: 'pending' })).toBe('RM 100 refund pending');
    expect(refundText('cancelled', { amountSen: 10000, state: 'failing' })).toBe('RM 100 refund failing');
    expect(refundText('cancelled', null)).toBe('No refund');
    expect(refundText('booked', null)).toBe('');
  });
});

test("one child's cancel and refund of a booking of several name the child (issue 37)", () => {
  const at = '2026-11-13T01:00:00.000Z';
  expect(eventSummary({ at, kind: 'child_cancelled', actor: 'parent', fromStart: null, toStart: null, amountSen: 4500, childName: 'Siti Hajar' })).toMatch(/^One child cancelled by .*: Siti Hajar, RM 45$/);
  expect(eventSummary({ at, kind: 'child_refunded', actor: 'system', fromStart: null, toStart: null, amountSen: 4500, childName: 'Siti Hajar' })).toMatch(/^One child's share refunded .*: Siti Hajar, RM 45$/);
});
