import { i18n, type Messages } from '@lingui/core';
import { DEFAULT_LOCALE, HTML_LANG, initialLocale, loadDateLocale, saveLocale, type Locale } from 'shared-api';

// One Lingui instance for the page (shared-ui is a shared singleton): the shell and every remote add their feature
// catalogues to it, each under its own name, so message ids never collide across teams.

/** A feature's messages: English (in the feature's own chunk) and a loader per other language (a chunk each). */
export type Catalog<M extends Record<string, string> = Record<string, string>> = {
  readonly name: string;
  /** Present only for typing `t`'s ids. */
  readonly messages?: M;
  /** Resolves once the catalogue's messages for `locale` are loaded into the page's i18n (English on failure). */
  ready(locale: Locale): Promise<void>;
  isReady(locale: Locale): boolean;
};

/** The other languages' JSON; a catalogue without one (the staff side's) shows English in that language. */
type Loaders = Partial<Record<Exclude<Locale, 'en'>, () => Promise<{ default: Record<string, unknown> }>>>;

const catalogs: Catalog[] = [];
/** The language being switched to: a catalogue defined meanwhile (a remote arriving) starts fetching it at once. */
let wantedLocale: Locale = DEFAULT_LOCALE;

const prefixed = (name: string, messages: Record<string, unknown>): Messages =>
  Object.fromEntries(Object.entries(messages).map(([id, message]) => [`${name}.${id}`, message])) as Messages;

/**
 * Registers a feature's catalogue. `en` is the feature's English JSON (compiled at build time by
 * scripts/i18n/catalog-loader.cjs); `loaders` import the other languages' JSON on demand.
 */
export function defineCatalog<M extends Record<string, string>>(name: string, en: M, loaders: Loaders): Catalog<M> {
  const loaded = new Map<Locale, Promise<void>>([['en', Promise.resolve()]]);
  const done = new Set<Locale>(['en']);
  i18n.load(DEFAULT_LOCALE, prefixed(name, en));
  // English until a language is chosen: a page (or a test) can render as soon as its catalogues are defined.
  if (!i18n.locale) i18n.activate(DEFAULT_LOCALE);
  const catalog: Catalog<M> = {
    name,
    isReady: (locale) => done.has(locale),
    ready(locale) {
      let promise = loaded.get(locale);
      if (!promise) {
        const loader = loaders[locale as Exclude<Locale, 'en'>] ?? (() => Promise.resolve({ default: en }));
        promise = loader()
          .then((module) => i18n.load(locale, prefixed(name, module.default)))
          // A parent on a bad connection still gets the page, in English, rather than an error.
          .catch(() => i18n.load(locale, prefixed(name, en)))
          .then(() => void done.add(locale));
        loaded.set(locale, promise);
      }
      return promise;
    },
  };
  catalogs.push(catalog);
  if (wantedLocale !== DEFAULT_LOCALE) void catalog.ready(wantedLocale);
  return catalog;
}

/** The page's language now. */
export const currentLocale = (): Locale => (i18n.locale || DEFAULT_LOCALE) as Locale;

/** Loads every registered catalogue and the date names for `locale`, then switches the page to it. */
export async function activateLocale(locale: Locale): Promise<void> {
  wantedLocale = locale;
  await Promise.all([loadDateLocale(locale).catch(() => undefined), ...catalogs.map((c) => c.ready(locale))]);
  i18n.activate(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[locale];
}

/** The parent's choice from the switcher: remembered in the browser, then applied. */
export async function chooseLocale(locale: Locale): Promise<void> {
  saveLocale(locale);
  await activateLocale(locale);
}

/** Before the first render: the remembered or preferred language (English at once, others after their chunks). */
export const startI18n = (): Promise<void> => activateLocale(initialLocale());

export { i18n };
