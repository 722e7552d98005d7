import MessageFormat from '@messageformat/core';
import type { BookingChangesPolicy } from './booking-policy';
import type { VisitTranslate } from './calendar';
import { changeTerms, changeTermsText, refundFromOf, refundPercentAt } from './change-terms';
import { CHINESE_DATE_NAMES } from './date-names-zh';
import { MALAY_DATE_NAMES } from './date-names-ms';
import { registerDateWords } from './gmt8';
import type { Locale } from './locale';
import en from './locales/en.json';
import ms from './locales/ms.json';
import zh from './locales/zh.json';

registerDateWords('ms', MALAY_DATE_NAMES);
registerDateWords('zh', CHINESE_DATE_NAMES);

/** The shared catalogue as the browser build and the mails compile it. */
function language(locale: Locale) {
  const mf = new MessageFormat(locale, { currency: 'MYR' });
  const messages = Object.fromEntries(Object.entries({ en, ms, zh }[locale]).map(([id, text]) => [id, mf.compile(text)]));
  const translate: VisitTranslate = (id, values) => messages[id](values) as string;
  return { locale, translate };
}

const HOUR = 3_600_000;
// The visit: Monday 30 November 2026, 9:00 AM GMT+8.
const start = new Date('2026-11-30T01:00:00Z');
const hoursBefore = (h: number) => new Date(start.getTime() - h * HOUR);
const policy: BookingChangesPolicy = { cutoffHours: 24, refundPolicy: [{ hoursBefore: 48, percent: 100 }], reminder: { daysBefore: 1, time: '09:00' } };

describe('changeTerms: the refund windows and the change deadline of one booking', () => {
  it('booked a week ahead: full refund until 48 hours before, changes until 24 hours before', () => {
    expect(changeTerms({ start, now: hoursBefore(24 * 7), policy })).toEqual({
      refunds: [{ percent: 100, until: hoursBefore(48).toISOString() }],
      changesUntil: hoursBefore(24).toISOString(),
      now: hoursBefore(24 * 7).toISOString(),
    });
  });

  it('booked 30 hours ahead: the refund window has closed already, changes are still open', () => {
    expect(changeTerms({ start, now: hoursBefore(30), policy }).refunds).toEqual([]);
  });

  it('measures the refund from the earliest start the booking had: a later move keeps the old refund deadline', () => {
    const original = hoursBefore(30);
    const later = new Date(start.getTime() + 14 * 24 * HOUR);
    const now = hoursBefore(60);
    // Moved from a visit 30 hours away to one two weeks later: no refund window opens.
    expect(changeTerms({ start: later, refundFrom: refundFromOf([original, later]), now: hoursBefore(29), policy }).refunds).toEqual([]);
    // Booked three days ahead and moved later: the full refund still ends 48 hours before the first visit.
    expect(changeTerms({ start: later, refundFrom: start, now, policy }).refunds).toEqual([{ percent: 100, until: hoursBefore(48).toISOString() }]);
    expect(refundPercentAt(start, hoursBefore(47), policy)).toBe(0);
  });

  it('several tiers: each window in time order, none past the change deadline, and the same percent refundPercentAt gives', () => {
    const tiers = { ...policy, refundPolicy: [{ hoursBefore: 12, percent: 25 }, { hoursBefore: 72, percent: 100 }, { hoursBefore: 36, percent: 50 }] };
    const terms = changeTerms({ start, now: hoursBefore(24 * 5), policy: tiers });
    expect(terms.refunds).toEqual([
      { percent: 100, until: hoursBefore(72).toISOString() },
      { percent: 50, until: hoursBefore(36).toISOString() },
      // The 12-hour tier lasts only until changes close (24 hours before).
      { percent: 25, until: hoursBefore(24).toISOString() },
    ]);
    for (const r of terms.refunds) expect(refundPercentAt(start, r.until, tiers)).toBe(r.percent);
  });
});

describe('changeTermsText: the same terms in each language', () => {
  const weekAhead = changeTerms({ start, now: hoursBefore(24 * 7), policy });

  it('English', () => {
    expect(changeTermsText(weekAhead, language('en'))).toBe(
      'Full refund if you cancel by Saturday 28 November 2026, 9:00 AM (GMT+8); after that no refund; changes until Sunday 29 November 2026, 9:00 AM (GMT+8).',
    );
    expect(changeTermsText(changeTerms({ start, now: hoursBefore(30), policy }), language('en'))).toBe(
      'No refund if you cancel; changes until Sunday 29 November 2026, 9:00 AM (GMT+8).',
    );
    expect(changeTermsText(changeTerms({ start, now: hoursBefore(3), policy }), language('en'))).toBe(
      'This booking can no longer be changed or cancelled online, and no refund applies.',
    );
    const half = changeTerms({ start, now: hoursBefore(24 * 7), policy: { ...policy, refundPolicy: [{ hoursBefore: 48, percent: 50 }] } });
    expect(changeTermsText(half, language('en'))).toMatch(/^50% refund if you cancel by Saturday/);
  });

  it('Bahasa Melayu', () => {
    expect(changeTermsText(weekAhead, language('ms'))).toBe(
      'Bayaran balik penuh jika anda membatalkan selewat-lewatnya Sabtu, 28 November 2026, 9:00 pagi (GMT+8); selepas itu tiada bayaran balik; perubahan boleh dibuat sehingga Ahad, 29 November 2026, 9:00 pagi (GMT+8).',
    );
  });

  it('Chinese, with full-width punctuation', () => {
    expect(changeTermsText(weekAhead, language('zh'))).toBe(
      '在2026年11月28日 星期六 上午9:00（GMT+8）前取消可获全额退款；此后取消不予退款；2026年11月29日 星期日 上午9:00（GMT+8）前可改期或取消。',
    );
  });
});
