import type { Locale } from 'shared-api';
import { defineCatalog, useCatalog, type Translate } from 'shared-ui';
import { useCommonRefusals, type CommonRefusals } from '../../lib/refusals/i18n';
import en from './locales/en.json';

/** The waitlist's words (join form, "check your email", the entry and offer pages), in the waitlist's lazy chunks. */
export const waitlistCatalog = defineCatalog('booking.waitlist', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});

export type WaitlistTextId = keyof typeof en;
/** The waitlist's words, and what every page says alike (a form rule the server named, the common refusals). */
export type WaitlistWords = { t: Translate<typeof en>; locale: Locale; common: CommonRefusals };
export const useWaitlistWords = (): WaitlistWords => ({ ...useCatalog(waitlistCatalog), common: useCommonRefusals() });
