// The languages the product speaks (issue 14), their one home: the language registry (shared-ui) and the contract
// (shared-api, for the server's mails and tables) both import them. Imports nothing, so the server takes no React.
export const LOCALES = ['en', 'ms', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];
/** English is the spec's words and the default. */
export const DEFAULT_LOCALE: Locale = 'en';
/** The cookie that remembers a browser's choice (also read by the static server for `<html lang>`). */
export const LOCALE_COOKIE = 'lang';
/** Each language named in itself, for the switcher. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', ms: 'Bahasa Melayu', zh: '中文' };
/** BCP 47 tags for `<html lang>` and mail headers. */
export const HTML_LANG: Record<Locale, string> = { en: 'en', ms: 'ms', zh: 'zh-Hans' };

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** The first of a browser's preferred languages that the product speaks ('ms-MY' → ms, 'zh-CN' → zh), if any. */
export function matchLocale(tags: readonly string[]): Locale | undefined {
  for (const tag of tags) {
    const primary = tag.toLowerCase().split(/[-_]/)[0];
    if (primary === 'en' || primary === 'ms' || primary === 'zh') return primary;
    // Bahasa Indonesia readers are better served by Malay than English.
    if (primary === 'id') return 'ms';
  }
  return undefined;
}
