import { use, useMemo, useSyncExternalStore } from 'react';
import type { Locale } from 'shared-api';
import { currentLocale, i18n, type Catalog } from './catalog';

export type MessageValues = Record<string, string | number | undefined>;
export type Translate<M> = (id: keyof M & string, values?: MessageValues) => string;

// Lingui's instance announces every change (a language activated, messages loaded); React reads it as an external
// store, so no provider has to wrap every app and test.
let version = 0;
i18n.on('change', () => {
  version += 1;
});
const subscribe = (onChange: () => void) => i18n.on('change', onChange);
const snapshot = () => version;

/**
 * A feature's messages in the page's language: `t(id, values)` (ICU placeholders and plurals by Lingui).
 * Suspends while a catalogue loaded after the language was chosen (a lazy dialog's, say) fetches its language.
 */
export function useCatalog<M extends Record<string, string>>(catalog: Catalog<M>): { t: Translate<M>; locale: Locale } {
  const seen = useSyncExternalStore(subscribe, snapshot, snapshot);
  const locale = currentLocale();
  if (!catalog.isReady(locale)) use(catalog.ready(locale));
  return useMemo(
    () => ({ locale, t: (id, values) => i18n._(`${catalog.name}.${id}`, values) }),
    // `seen` changes with every language switch and every catalogue loaded.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [catalog, locale, seen],
  );
}

/** The page's language, re-rendering when it changes. */
export function useLocale(): Locale {
  useSyncExternalStore(subscribe, snapshot, snapshot);
  return currentLocale();
}
