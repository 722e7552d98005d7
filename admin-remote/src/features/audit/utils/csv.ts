// The audit trail as CSV (built in the browser from the paged API): the lib's RFC 4180 quoting and formula guard.
import type { AuditRecord } from 'shared-api/audit';
import { csvText } from '../../../lib/csv';
import { actionLabel, detailText, formatAuditTime } from './format';

export const AUDIT_CSV_HEADER = ['Time (GMT+8)', 'Who', 'Action', 'Target', 'Detail', 'From'] as const;

export const auditCsv = (records: AuditRecord[]): string =>
  csvText(
    AUDIT_CSV_HEADER,
    records.map((r) => [formatAuditTime(r.at), r.actor, actionLabel(r), r.target, detailText(r), r.ip]),
  );
