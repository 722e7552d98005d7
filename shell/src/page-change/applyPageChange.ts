// The page-change chunk: loaded at the first page change or language switch, so the first load of `/` carries none of it.
import { brandTitle, type Locale } from 'shared-api';
import { pageLocale } from '../app/pageLocale';
import { focusMainHeading } from './focusMainHeading';
import { pageTitleCatalog } from './i18n';
import { documentTitle, pageTitleId } from './pageTitles';

/** The document's title for the page at `pathname` in the parent's chosen language (the staff side: English). */
export async function pageTitle(pathname: string, chosen: Locale): Promise<string> {
  const locale = pageLocale(pathname, chosen);
  await pageTitleCatalog.ready(locale);
  return documentTitle(pageTitleCatalog.translate(locale, pageTitleId(pathname)), brandTitle(locale));
}

let latest = 0;
let stopFocusing: () => void = () => undefined;

/** Titles the page; on a new page (not a language switch) also moves focus to its heading. */
export async function applyPageChange(pathname: string, locale: Locale, newPage: boolean): Promise<void> {
  const change = ++latest;
  if (newPage) {
    stopFocusing();
    stopFocusing = focusMainHeading();
  }
  const title = await pageTitle(pathname, locale);
  // A later change (a quick second click) already set its own.
  if (change === latest) document.title = title;
}
