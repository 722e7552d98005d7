// The words this server writes into every page's HTML, in the page's language: its <title> (the shell's route-to-title
// map, the same the browser applies at each page change) and the line a browser without JavaScript shows.
import MessageFormat from '@messageformat/core';
import { brandTitle, type Locale } from 'shared-api/contract';
import { remoteForPath } from '../src/app/remoteForPath';
import titlesEn from '../src/page-change/locales/en.json';
import titlesMs from '../src/page-change/locales/ms.json';
import titlesZh from '../src/page-change/locales/zh.json';
import { documentTitle, pageTitleId } from '../src/page-change/pageTitles';
import noScriptEn from './locales/en.json';
import noScriptMs from './locales/ms.json';
import noScriptZh from './locales/zh.json';

type Catalogue = Record<string, string>;
const TITLES: Record<Locale, Catalogue> = { en: titlesEn, ms: titlesMs, zh: titlesZh };
const NO_SCRIPT: Record<Locale, Catalogue> = { en: noScriptEn, ms: noScriptMs, zh: noScriptZh };

const compiled = new Map<string, string>();
/** A catalogue's text as the build compiles it (ICU MessageFormat: quoting, no placeholders here); English when missing. */
function text(catalogues: Record<Locale, Catalogue>, locale: Locale, id: string): string {
  const source = catalogues[locale][id] ?? catalogues.en[id] ?? id;
  const key = `${locale}\u0000${source}`;
  let done = compiled.get(key);
  if (done === undefined) compiled.set(key, (done = String(new MessageFormat(locale).compile(source)())));
  return done;
}

export const escapeHtml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The page's document title, "<page> · <product>", in `locale` (the page's own: English on the staff side). */
export const pageTitleText = (pathname: string, locale: Locale): string =>
  documentTitle(text(TITLES, locale, pageTitleId(pathname)), brandTitle(locale));

/** What a browser without JavaScript shows on the page at `pathname`: the booking page or the staff login needs it. */
export const noScriptText = (pathname: string, locale: Locale): string =>
  text(NO_SCRIPT, locale, remoteForPath(pathname) === 'admin' ? 'staffLoginNeedsJavaScript' : 'bookingPageNeedsJavaScript');
