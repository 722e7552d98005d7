import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The server rendering's own words (the notice a browser without JavaScript shows): in render.js only, never in the browser's code. */
export const serverRenderCatalog = defineCatalog('booking.serverRender', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
