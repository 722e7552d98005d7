import { momentText, quoteText, refundText, timeSpan } from './words';

describe('manage page words', () => {
  it('shows instants in GMT+8', () => {
    expect(timeSpan('2026-11-27T01:00:00.000Z', '2026-11-27T01:30:00.000Z')).toBe('9:00 AM – 9:30 AM');
    // 23:30 UTC is already the next day in GMT+8.
    expect(momentText('2026-11-25T23:30:00.000Z')).toBe('Thursday 26 November 2026, 7:30 AM (GMT+8)');
  });

  it.each([
    [{ percent: 100, amountSen: 7500 }, 'You will get a full refund of RM 75.'],
    [{ percent: 50, amountSen: 3775 }, 'RM 37.75 (50%) will be refunded.'],
    [{ percent: 0, amountSen: 0 }, 'You paid RM 75. No refund applies if you cancel now.'],
  ])('says the refund of a cancel now (%j)', (quote, words) => expect(quoteText(quote, 7500)).toBe(words));

  it.each([
    ['pending', 'Refund of RM 75: being processed'],
    ['refunded', 'Refund of RM 75: refunded'],
    ['failing', 'Refund of RM 75: being retried; the school has been told'],
  ] as const)('says where a refund is (%s)', (state, words) => expect(refundText({ amountSen: 7500, state })).toBe(words));
});
