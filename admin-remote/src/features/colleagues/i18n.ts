import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The colleagues list's words (English only for now). */
export const colleaguesCatalog = defineCatalog('admin.colleagues', en, {});
