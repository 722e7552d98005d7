import { defineCatalog } from 'shared-ui';
import { translator } from '../../lib/i18n';
import en from './locales/en.json';

/** The waitlist page's and counts' words (English only, as the rest of the staff side). */
export const waitlistCatalog = defineCatalog('admin.waitlist', en, {});
export const waitlistText = translator(waitlistCatalog);
