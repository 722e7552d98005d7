import { defineCatalog } from './catalog';
import en from './locales/en.json';

/**
 * The design system's own words (ErrorPanel's Retry, Spinner's default label, the toasts' region and close labels).
 * On every page's first load: keep it to the few words the core components actually show. The dialogs' words are
 * shared-ui/forms' catalogue ('ui.forms'), in the chunks that show a dialog.
 */
export const uiCatalog = defineCatalog('ui', en, {
  ms: () => import(/* webpackChunkName: "frame-ms" */ './locales/ms.json'),
  zh: () => import(/* webpackChunkName: "frame-zh" */ './locales/zh.json'),
});
