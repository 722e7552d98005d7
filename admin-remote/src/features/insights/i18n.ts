import { defineCatalog } from 'shared-ui';
import { translator } from '../../lib/i18n';
import en from './locales/en.json';

/** The Insights page's words: filters, charts, tables and their CSV (English only for now). */
export const insightsCatalog = defineCatalog('admin.insights', en, {});

/** Its words outside components (the tables and the CSV), in the page's language at the call. */
export const insightsText = translator(insightsCatalog);
