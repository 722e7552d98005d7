import { defineCatalog, type Translate } from 'shared-ui';
import { translator } from '../../lib/i18n';
import en from './locales/en.json';

/** The create-slots dialog's words (English only for now). */
export const createSlotsCatalog = defineCatalog('admin.create-slots', en, {});

/** Its words outside components (the form's own rules), in the page's language when they run. */
export const createSlotsText = translator(createSlotsCatalog);

export type CreateSlotsTranslate = Translate<typeof en>;
