import type { Locale } from 'shared-api';
import { defineCatalog, type Translate } from 'shared-ui';
import en from './locales/en.json';

/** The waitlist's words (join form, "check your email", the entry and offer pages), in the waitlist's lazy chunks. */
export const waitlistCatalog = defineCatalog('booking.waitlist', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});

export type WaitlistTextId = keyof typeof en;
export type WaitlistWords = { t: Translate<typeof en>; locale: Locale };
