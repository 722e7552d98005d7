// How the audit page shows a record: its time in GMT+8, its action's label, what it touched and the details.
import { formatRM } from 'shared-api';
import { inMY } from 'shared-api/time';
import { AuditActionLabel, type AuditRecord } from 'shared-api/audit';
import { auditText } from '../i18n';

/** 'Nov 23, 2026, 4:05:09 PM' in GMT+8. */
export function formatAuditTime(iso: string): string {
  const at = inMY(iso);
  return at.isValid() ? at.format('MMM DD, YYYY, h:mm:ss A') : iso;
}

export const actionLabel = (record: Pick<AuditRecord, 'action'>): string => AuditActionLabel[record.action] ?? record.action;

const money = (value: unknown) => (typeof value === 'number' ? formatRM(value) : null);
const when = (value: unknown) => (typeof value === 'string' ? formatAuditTime(value) : null);

/** The record's detail in words ('' when it has none): moves, refunds, slot times. */
export function detailText(record: Pick<AuditRecord, 'action' | 'detail'>): string {
  const d = record.detail;
  if (!d) return '';
  const parts: string[] = [];
  // Several slots created at once: how many, over which days, at which times.
  if (typeof d.count === 'number') {
    const range = { count: d.count, from: String(d.fromDate ?? '?'), to: String(d.toDate ?? '?') };
    parts.push(
      Array.isArray(d.startTimes)
        ? auditText('slotsCreatedAt', { ...range, times: d.startTimes.join(', ') })
        : auditText('slotsCreated', range),
    );
  } else if (d.from !== undefined || d.to !== undefined) parts.push(auditText('moved', { from: when(d.from) ?? '?', to: when(d.to) ?? '?' }));
  else if (typeof d.start === 'string') parts.push(when(d.start)!);
  if (typeof d.refund === 'boolean') parts.push(auditText(d.refund ? 'withRefund' : 'noRefund'));
  const refund = money(d.refundSen) ?? money(d.amountSen);
  if (refund && (record.action !== 'booking_cancelled_by_staff' || d.refund)) parts.push(refund);
  if (typeof d.school === 'string') parts.push(d.school);
  return parts.join('; ');
}
