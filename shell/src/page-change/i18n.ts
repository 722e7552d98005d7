import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';
import ms from './locales/ms.json';
import zh from './locales/zh.json';

/**
 * The pages' titles (the document's <title>), all three languages in the page-change chunk (no chunk of their own): loaded
 * at the first page change or language switch, never on the first load.
 */
export const pageTitleCatalog = defineCatalog('shell.pageTitle', en, {
  ms: async () => ({ default: ms }),
  zh: async () => ({ default: zh }),
});
