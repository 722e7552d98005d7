import { defineCatalog } from 'shared-ui';
import { translator } from '../../lib/i18n';
import en from './locales/en.json';

/** The staff alerts' words (English only for now). */
export const alertsCatalog = defineCatalog('admin.alerts', en, {});

/** Its words outside components (ages, mail kinds, summaries), in the page's language at the call. */
export const alertsText = translator(alertsCatalog);
