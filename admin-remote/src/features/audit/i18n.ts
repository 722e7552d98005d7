import { defineCatalog } from 'shared-ui';
import { translator } from '../../lib/i18n';
import en from './locales/en.json';

/** The audit page's words: filters, table, paging, the records' details and the CSV (English only for now). */
export const auditCatalog = defineCatalog('admin.audit', en, {});

/** Its words outside components (the details and the CSV), in the page's language at the call. */
export const auditText = translator(auditCatalog);
