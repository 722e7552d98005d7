// A booking's refund and change terms in plain words ("Full refund if you cancel by …; after that no refund; changes
// until …"): the summary before paying, the success page, the manage page and the parent's mails all say them with
// these two functions, from `bookingChanges` in brand.config.json. Plain TS: the server and the browser both run it.
import { bookingChanges, refundAmountSen, refundPercent, type BookingChangesPolicy } from './booking-policy';
import type { VisitLanguage } from './calendar';
import { formatInMY } from './gmt8';
import type { Locale } from './locale';

const HOUR_MS = 3_600_000;

// The browser's pages take the policy from here (`shared-api/change-terms`), off the first load.
export { bookingChanges, refundAmountSen };

/** Until `until` (an ISO instant), a cancel gives back `percent` of what was paid. */
export type RefundWindow = { percent: number; until: string };
/** What a parent may still do: the refund windows in time order (none: a cancel refunds nothing) and the change deadline. */
export type ChangeTerms = { refunds: RefundWindow[]; changesUntil: string; now: string };

type Instant = Date | string | number;
const ms = (value: Instant) => (value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value));

/**
 * The instant the refund is measured from: the earliest start the booking has had. A move to a later time never buys a
 * later refund deadline (book near, move far, cancel for 100 %); a move to an earlier one brings it forward.
 */
export const refundFromOf = (starts: Instant[]): Date => new Date(Math.min(...starts.map(ms)));

/** The percentage a cancel at `now` refunds, for a booking whose refund is measured from `refundFrom`. */
export const refundPercentAt = (refundFrom: Instant, now: Instant, policy: BookingChangesPolicy = bookingChanges): number =>
  refundPercent(policy, (ms(refundFrom) - ms(now)) / HOUR_MS);

/**
 * The terms of a booking whose visit starts at `start` and whose refund is measured from `refundFrom` (default: `start`,
 * a booking never moved), as they stand at `now`: windows already closed are left out, and none lasts past the change
 * deadline (a cancel is possible only until then). The same windows `refundPercentAt` applies.
 */
export function changeTerms({
  start,
  refundFrom = start,
  now,
  policy = bookingChanges,
}: {
  start: Instant;
  refundFrom?: Instant;
  now: Instant;
  policy?: BookingChangesPolicy;
}): ChangeTerms {
  const changesUntil = ms(start) - policy.cutoffHours * HOUR_MS;
  const from = Math.min(ms(refundFrom), ms(start));
  const refunds: RefundWindow[] = [];
  let previous = ms(now);
  // Most hours first is earliest deadline first: at any moment the tier with the earliest deadline still ahead applies.
  for (const tier of [...policy.refundPolicy].sort((a, b) => b.hoursBefore - a.hoursBefore)) {
    const until = Math.min(from - tier.hoursBefore * HOUR_MS, changesUntil);
    if (until <= previous) continue;
    previous = until;
    const percent = refundPercentAt(from, until, policy);
    if (percent > 0) refunds.push({ percent, until: new Date(until).toISOString() });
  }
  return { refunds, changesUntil: new Date(changesUntil).toISOString(), now: new Date(ms(now)).toISOString() };
}

// Chinese clauses take the full-width semicolon and full stop.
const CLAUSE_SEPARATOR: Record<Locale, string> = { en: '; ', ms: '; ', zh: '；' };
const SENTENCE_END: Record<Locale, string> = { en: '.', ms: '.', zh: '。' };

/**
 * The terms as one sentence in the language ("Full refund if you cancel by Saturday 28 November 2026, 9:00 AM (GMT+8);
 * after that no refund; changes until Sunday 29 November 2026, 9:00 AM (GMT+8)."). Its clauses are whole catalogue
 * texts (`terms.*` in shared-api/locales), one per refund window; past the change deadline it says so instead.
 */
export function changeTermsText(
  terms: ChangeTerms,
  {
    locale = 'en',
    translate,
    format = formatInMY,
  }: VisitLanguage & Required<Pick<VisitLanguage, 'translate'>> & {
    /** The page's own formatter (the browser's shared copy, which knows the chosen language's day and month names). */
    format?: typeof formatInMY;
  },
): string {
  const moment = (iso: string) => translate('terms.moment', { day: format(iso, 'longDate', locale), time: format(iso, 'time', locale) });
  if (Date.parse(terms.changesUntil) <= Date.parse(terms.now)) return translate('terms.final');
  const clauses =
    terms.refunds.length === 0
      ? [translate('terms.noRefund')]
      : [
          ...terms.refunds.map((r) =>
            r.percent >= 100 ? translate('terms.fullRefundBy', { moment: moment(r.until) }) : translate('terms.refundBy', { percent: r.percent, moment: moment(r.until) }),
          ),
          translate('terms.noRefundAfter'),
        ];
  return clauses.concat(translate('terms.changesUntil', { moment: moment(terms.changesUntil) })).join(CLAUSE_SEPARATOR[locale]) + SENTENCE_END[locale];
}
