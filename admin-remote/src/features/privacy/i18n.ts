import { defineCatalog } from 'shared-ui';
import en from './locales/en.json';

/** The privacy page's words (English only for now, like the rest of the staff side). */
export const privacyCatalog = defineCatalog('admin.privacy', en, {});
