import { formatInMY, formatRM, type BookingRefund, type BookingState, type CancelQuote } from 'shared-api';
import { currentLocale, translator } from 'shared-ui';
import { manageCatalog, type ManageWords } from '../i18n';

// The manage page's sentences, from the booking as the server sends it (instants in UTC, shown in GMT+8), in the
// language of `words` (a component passes its `useCatalog(manageCatalog)`; without, the page's language now).

/** The page's language now, for callers outside a component. */
export const pageWords = (): ManageWords => ({ t: translator(manageCatalog), locale: currentLocale() });

/** "Thursday 26 November 2026" in GMT+8. */
export const dayOf = (iso: string, { locale } = pageWords()): string => formatInMY(iso, 'longDate', locale);

/** "9:00 AM – 9:30 AM" in GMT+8. */
export const timeSpan = (start: string, end: string, { locale } = pageWords()): string =>
  `${formatInMY(start, 'time', locale)} – ${formatInMY(end, 'time', locale)}`;

/** "Thursday 26 November 2026, 9:00 AM (GMT+8)". */
export const momentText = (iso: string, words = pageWords()): string =>
  words.t('moment', { day: dayOf(iso, words), time: formatInMY(iso, 'time', words.locale) });

/** What cancelling now gives back, said before the parent confirms. */
export function quoteText(quote: CancelQuote, paidSen: number, { t, locale } = pageWords()): string {
  const amount = formatRM(quote.amountSen, locale);
  if (quote.percent >= 100) return t('quote.full', { amount });
  if (quote.percent <= 0 || quote.amountSen <= 0) return t('quote.none', { amount: formatRM(paidSen, locale) });
  return t('quote.partial', { amount, percent: quote.percent });
}

const refundProgress = { pending: 'refund.pending', refunded: 'refund.refunded', failing: 'refund.failing' } as const satisfies Record<
  BookingRefund['state'],
  string
>;

/** "Refund of RM 75: being processed". */
export const refundText = (refund: BookingRefund, { t, locale } = pageWords()): string =>
  t(refundProgress[refund.state], { amount: formatRM(refund.amountSen, locale) });

const stateWords = { booked: 'state.booked', cancelled: 'state.cancelled', over: 'state.over' } as const satisfies Record<BookingState, string>;
export const stateText = (state: BookingState, { t } = pageWords()): string => t(stateWords[state]);
