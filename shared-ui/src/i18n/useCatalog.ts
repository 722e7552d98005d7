import { use, useMemo, useSyncExternalStore } from 'react';
import { currentLocale, languageVersion, subscribeToLanguage, type Catalog, type Translate } from './catalog';
import type { Locale } from './languages';

/**
 * A feature's messages in the page's language: `t(id, values)` (ICU placeholders and plurals by messageformat).
 * Suspends while a catalogue loaded after the language was chosen (a lazy dialog's, say) fetches its language.
 */
export function useCatalog<M extends Record<string, string>>(catalog: Catalog<M>): { t: Translate<M>; locale: Locale } {
  const seen = useSyncExternalStore(subscribeToLanguage, languageVersion, languageVersion);
  const locale = currentLocale();
  if (!catalog.isReady(locale)) use(catalog.ready(locale));
  return useMemo(
    () => ({ locale, t: (id, values) => catalog.translate(locale, id, values) }),
    // `seen` changes with every language switch and every catalogue loaded.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [catalog, locale, seen],
  );
}

/** The page's language, re-rendering when it changes. */
export function useLocale(): Locale {
  useSyncExternalStore(subscribeToLanguage, languageVersion, languageVersion);
  return currentLocale();
}
