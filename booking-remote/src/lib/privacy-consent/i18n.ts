import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The privacy notice's consent (PDPA): its words, shared by the booking form and the waitlist form. */
export const consentCatalog = defineCatalog('booking.consent', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
