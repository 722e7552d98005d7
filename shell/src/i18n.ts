import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/**
 * The frame's words (header, remote panels); other languages load when chosen, in one chunk with the design system's
 * words and the language's date words (frame-<language>).
 */
export const shellCatalog = defineCatalog('shell', en, {
  ms: () => import(/* webpackChunkName: "frame-ms" */ './locales/ms.json'),
  zh: () => import(/* webpackChunkName: "frame-zh" */ './locales/zh.json'),
});
