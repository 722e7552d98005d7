import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The staff sign-in, account and session words (English only: another language is a translation of en.json). */
export const authCatalog = defineCatalog('admin.auth', en, {});
