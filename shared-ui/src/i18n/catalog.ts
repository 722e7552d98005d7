import Cookies from 'js-cookie';
import { DEFAULT_LOCALE, HTML_LANG, isLocale, LOCALE_COOKIE, matchLocale, type Locale } from './languages';

// The page's language and every feature's messages. Catalogues are ICU MessageFormat JSON compiled to functions when
// the bundles are built (scripts/i18n/catalog-loader.cjs, messageformat's compileModule): a static text is a function
// returning a string, a plural calls messageformat's runtime, and no message parser reaches the browser. shared-ui is a
// shared singleton, so the shell and both remotes read one language and one registry.

/** A compiled message: the text with `values` put in by the library's ICU rules (placeholders, plural, select). */
export type MessageFunction = (values?: Record<string, unknown>) => string;
export type MessageValues = Record<string, string | number | undefined>;
export type Translate<M> = (id: keyof M & string, values?: MessageValues) => string;

/** A feature's messages: English (in the feature's own chunk) and a loader per other language (a chunk each). */
export type Catalog<M extends Record<string, string> = Record<string, string>> = {
  readonly name: string;
  /** Present only for typing `t`'s ids. */
  readonly messages?: M;
  /** Resolves once the catalogue's messages for `locale` are loaded (English on failure). */
  ready(locale: Locale): Promise<void>;
  isReady(locale: Locale): boolean;
  /** The message in `locale` (English when that language lacks it). */
  translate(locale: Locale, id: string, values?: MessageValues): string;
};

/** The other languages' JSON; a catalogue without one (the staff side's) shows English in that language. */
type Loaders = Partial<Record<Exclude<Locale, 'en'>, () => Promise<{ default: Record<string, unknown> }>>>;

// Jest imports the JSON as it is; its setup compiles raw texts with messageformat (the build has already compiled them).
let compileRawText: ((locale: Locale, text: string) => MessageFunction) | undefined;
/** For test setups only: how a raw (uncompiled) text becomes a message. */
export function setMessageCompiler(compile: (locale: Locale, text: string) => MessageFunction): void {
  compileRawText = compile;
}

const toMessages = (locale: Locale, messages: Record<string, unknown>): Record<string, MessageFunction> =>
  Object.fromEntries(
    Object.entries(messages).map(([id, message]) => [
      id,
      typeof message === 'function'
        ? (message as MessageFunction)
        : (compileRawText?.(locale, String(message)) ?? (() => String(message))),
    ]),
  );

// One small store: the language and a version that changes with every switch and every catalogue loaded.
let locale: Locale = DEFAULT_LOCALE;
let version = 0;
const listeners = new Set<() => void>();
const changed = () => {
  version += 1;
  listeners.forEach((listener) => listener());
};
export const subscribeToLanguage = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
export const languageVersion = (): number => version;

const catalogs: Catalog[] = [];
/** The language being switched to: a catalogue defined meanwhile (a remote arriving) starts fetching it at once. */
let wantedLocale: Locale = DEFAULT_LOCALE;

/**
 * Registers a feature's catalogue. `en` is the feature's English JSON; `loaders` import the other languages' JSON
 * on demand. The catalogue's name keeps its ids apart from every other feature's.
 */
export function defineCatalog<M extends Record<string, string>>(name: string, en: M, loaders: Loaders): Catalog<M> {
  const tables = new Map<Locale, Record<string, MessageFunction>>([['en', toMessages('en', en)]]);
  const loading = new Map<Locale, Promise<void>>([['en', Promise.resolve()]]);
  const catalog: Catalog<M> = {
    name,
    isReady: (wanted) => tables.has(wanted),
    ready(wanted) {
      let promise = loading.get(wanted);
      if (!promise) {
        const loader = loaders[wanted as Exclude<Locale, 'en'>];
        promise = (loader ? loader() : Promise.resolve({ default: {} }))
          .then((module) => toMessages(wanted, module.default))
          // A parent on a bad connection still gets the page, in English, rather than an error.
          .catch(() => ({}))
          .then((messages) => {
            tables.set(wanted, messages);
            changed();
          });
        loading.set(wanted, promise);
      }
      return promise;
    },
    translate(wanted, id, values) {
      const message = tables.get(wanted)?.[id] ?? tables.get('en')?.[id];
      return message ? message(values ?? {}) : id;
    },
  };
  catalogs.push(catalog);
  if (wantedLocale !== DEFAULT_LOCALE) void catalog.ready(wantedLocale);
  return catalog;
}

/** The page's language now. */
export const currentLocale = (): Locale => locale;

/** `t` outside a component (a text helper, a CSV): the catalogue's message in the page's language at the call. */
export const translator =
  <M extends Record<string, string>>(catalog: Catalog<M>): Translate<M> =>
  (id, values) =>
    catalog.translate(locale, id, values);

// What a language needs besides the catalogues, given by the packages that own it (shared-api: its date words).
const languageLoaders = new Set<(locale: Locale) => Promise<void>>();
/** Has the page wait for `load(locale)` (a failure is ignored: English stands in) before it switches to a language. */
export function loadWithLanguage(load: (locale: Locale) => Promise<void>): void {
  languageLoaders.add(load);
}

/** Loads every registered catalogue and what `loadWithLanguage` asked for, then switches the page to `locale`. */
export async function activateLocale(next: Locale): Promise<void> {
  wantedLocale = next;
  const loads = [...languageLoaders].map((load) => load(next).catch(() => undefined));
  await Promise.all([...loads, ...catalogs.map((c) => c.ready(next))]);
  locale = next;
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[next];
  changed();
}

/** The browser's language: remembered in a cookie (a year), else the browser's preferred languages, else English. */
export function initialLocale(): Locale {
  const saved = Cookies.get(LOCALE_COOKIE);
  if (isLocale(saved)) return saved;
  const preferred = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return matchLocale(preferred) ?? DEFAULT_LOCALE;
}

/** The parent's choice from the switcher: remembered in the browser (a year), then applied. */
export async function chooseLocale(next: Locale): Promise<void> {
  const secure = typeof window !== 'undefined' && window.location.protocol === 'https:';
  Cookies.set(LOCALE_COOKIE, next, { path: '/', sameSite: 'Lax', secure, expires: 365 });
  await activateLocale(next);
}

/**
 * Before the first render: the page's language, by default the remembered or preferred one (English at once, others
 * after their chunks). The shell passes English on staff pages.
 */
export const startI18n = (pageLocale: Locale = initialLocale()): Promise<void> => activateLocale(pageLocale);
