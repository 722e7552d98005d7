import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The dialogs' built-in words (close, cancel, the chunk that failed to load), with the chunks that show a dialog. */
export const formsCatalog = defineCatalog('ui.forms', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
