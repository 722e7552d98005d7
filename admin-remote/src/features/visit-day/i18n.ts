import { defineCatalog } from 'shared-ui';
import { translator } from '../../lib/i18n';
import en from './locales/en.json';

/** The Today view's words (English only, as the rest of the staff side). */
export const visitDayCatalog = defineCatalog('admin.visitDay', en, {});
export const visitDayText = translator(visitDayCatalog);
