import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The staff pages' own words: titles, introductions and the links between pages (English only for now). */
export const pagesCatalog = defineCatalog('admin.pages', en, {});
