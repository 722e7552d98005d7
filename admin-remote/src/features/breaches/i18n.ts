import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The breach log's words (English only, like the rest of the staff side). */
export const breachesCatalog = defineCatalog('admin.breaches', en, {});
