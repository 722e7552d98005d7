import { defineCatalog } from 'shared-ui';
import en from 'shared-api/locales/en.json';

/**
 * The texts the browser shares with the server's mails (shared-api/src/contract/locales): the what-to-bring items and
 * the calendar invitation's title and description. Its `t` is the `translate` of shared-api's calendar builders.
 */
export const contractCatalog = defineCatalog('contract', en, {
  ms: () => import('shared-api/locales/ms.json'),
  zh: () => import('shared-api/locales/zh.json'),
});

/** The what-to-bring items' ids, in WHAT_TO_BRING's order. */
export const WHAT_TO_BRING_IDS = ['whatToBring.0', 'whatToBring.1', 'whatToBring.2', 'whatToBring.3'] as const satisfies ReadonlyArray<keyof typeof en>;
