import { defineCatalog, type Translate } from 'shared-ui';
import en from './locales/en.json';

/**
 * The booking dialog's words (every step, its toasts and errors): in the dialog's lazy chunk, the other languages
 * fetched on demand. Ids of the contract's texts are their keys (ValidationMessage, BookingMessage), with the
 * contract's English words (see utils/dialogText.ts).
 */
export const dialogCatalog = defineCatalog('booking.dialog', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});

export type DialogMessageId = keyof typeof en;
export type DialogTranslate = Translate<typeof en>;
