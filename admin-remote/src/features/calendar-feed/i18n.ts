import { defineCatalog } from 'shared-ui';
import { translator } from '../../lib/i18n';
import en from './locales/en.json';

/** The calendar feed panel's words (English only for now). */
export const calendarFeedCatalog = defineCatalog('admin.calendar-feed', en, {});

export const calendarFeedText = translator(calendarFeedCatalog);
