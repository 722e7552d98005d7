import type { Locale } from './locale';

// The product's one money format (browser and server). Built at first use, not at import: an Intl formatter costs
// tens of ms to create on a slow phone, and shared-api is imported on every page whether or not it shows money.
let formatters: { whole: Intl.NumberFormat; cents: Intl.NumberFormat } | undefined;

const ringgitFormatters = () =>
  (formatters ??= {
    whole: new Intl.NumberFormat('en-MY', { style: 'currency', currency: 'MYR', maximumFractionDigits: 0 }),
    cents: new Intl.NumberFormat('en-MY', { style: 'currency', currency: 'MYR', minimumFractionDigits: 2 }),
  });

/** Integer sen as a ringgit amount without the currency: 7500 → '75', 7550 → '75.50'. */
export function formatRinggit(sen: number): string {
  return formatRM(sen).replace(/^RM\s*/, '');
}

/**
 * Formats integer sen as ringgit: 7500 → 'RM 75', 7550 → 'RM 75.50', 0 → 'RM 0' (the spec's English). Malay and
 * Chinese texts in Malaysia write the symbol against the amount, as Dewan Bahasa dan Pustaka does: 'RM75.50'.
 */
export function formatRM(sen: number, locale: Locale = 'en'): string {
  if (!Number.isSafeInteger(sen)) throw new RangeError(`formatRM expects integer sen, got ${sen}`);
  const { whole, cents } = ringgitFormatters();
  const formatted = (sen % 100 === 0 ? whole : cents).format(sen / 100);
  // Some ICU versions put a no-break space after "RM"; the product writes a plain space.
  const spaced = formatted.replace(/\u00a0/g, ' ');
  return locale === 'en' ? spaced : spaced.replace(/^RM\s*/, 'RM');
}
