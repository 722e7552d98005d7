import { defineCatalog, type Translate } from 'shared-ui';
import { translator } from '../../lib/i18n';
import en from './locales/en.json';

/** The dashboard's words: counts, the slot table, appointment details, move, cancel and the CSV (English only for now). */
export const dashboardCatalog = defineCatalog('admin.dashboard', en, {});

/** The dashboard's words outside components (the CSV, the history's lines), in the page's language at the call. */
export const dashboardText = translator(dashboardCatalog);

export type DashboardTranslate = Translate<typeof en>;
