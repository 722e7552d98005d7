import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The WhatsApp opt-in beside the contact number (issue 38): the booking form's and the waitlist form's words. */
export const whatsappOptInCatalog = defineCatalog('booking.whatsappOptIn', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});
