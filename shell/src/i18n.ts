import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The frame's words (header, remote panels); other languages load when chosen. */
export const shellCatalog = defineCatalog('shell', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
