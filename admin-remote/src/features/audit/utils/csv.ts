// The audit trail as CSV (built in the browser from the paged API): the lib's RFC 4180 quoting and formula guard.
import type { AuditRecord } from 'shared-api/audit';
import { csvText } from '../../../lib/csv';
import { auditText } from '../i18n';
import { actionLabel, detailText, formatAuditTime } from './format';

const CSV_COLUMNS = ['csvTime', 'csvWho', 'csvAction', 'csvTarget', 'csvDetail', 'csvFrom'] as const;

/** The header row's words, in the page's language. */
export const auditCsvHeader = (): string[] => CSV_COLUMNS.map((id) => auditText(id));

export const auditCsv = (records: AuditRecord[]): string =>
  csvText(
    auditCsvHeader(),
    records.map((r) => [formatAuditTime(r.at), r.actor, actionLabel(r), r.target, detailText(r), r.ip]),
  );
