import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The pages' titles (the document's <title>): in the page-change chunk, loaded at the first page change, never on the first load. */
export const pageTitleCatalog = defineCatalog('shell.pageTitle', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
