// How the audit page shows a record: its time in GMT+8, its action's label, what it touched and the details.
import { formatRM } from 'shared-api';
import { dayInMY } from 'shared-api/time';
import { AuditActionLabel, type AuditRecord } from 'shared-api/audit';
import { formatDay, formatInstant, formatInstantRange, formatTime, formatWeekday } from '../../../lib/format';
import { auditText } from '../i18n';

/** '23 Nov 2026, 4:05:09 PM' in GMT+8: a record keeps its seconds. */
export const formatAuditTime = (iso: string): string => formatInstant(iso, { seconds: true });

export const actionLabel = (record: Pick<AuditRecord, 'action'>): string => AuditActionLabel[record.action] ?? record.action;

const money = (value: unknown) => (typeof value === 'number' ? formatRM(value) : null);
const when = (value: unknown) => (typeof value === 'string' ? formatInstant(value) : null);

/** '2 Mar – 20 Mar 2026'; the first day's year only when the two differ: '21 Dec 2026 – 1 Jan 2027'. */
export function dayRange(from: string, to: string): string {
  const [a, b] = [dayInMY(from), dayInMY(to)];
  if (!a.isValid() || !b.isValid()) return `${from} – ${to}`;
  if (from === to) return formatDay(from);
  return `${a.format(a.year() === b.year() ? 'D MMM' : 'D MMM YYYY')} – ${formatDay(to)}`;
}

type CreatedSlot = { id: number; start: string; end: string };
const createdSlots = (detail: AuditRecord['detail']): CreatedSlot[] =>
  Array.isArray(detail?.slots)
    ? detail.slots.filter(
        (s): s is CreatedSlot => typeof s === 'object' && s !== null && typeof s.id === 'number' && typeof s.start === 'string' && typeof s.end === 'string',
      )
    : [];

/**
 * What a record touched, as the table shows it: one line, and for several slots created at once a summary
 * ('30 slots, 21 Dec – 1 Jan 2027 at 8:30 AM, 2:00 PM') with each slot behind a disclosure.
 */
export function targetSummary(record: Pick<AuditRecord, 'action' | 'detail'> & { target?: string | null }): { text: string; items: string[] } {
  const d = record.detail;
  if (typeof d?.count === 'number' && typeof d.fromDate === 'string' && typeof d.toDate === 'string') {
    const times = Array.isArray(d.startTimes) ? d.startTimes.filter((t): t is string => typeof t === 'string').map(formatTime) : [];
    const values = { count: d.count, range: dayRange(d.fromDate, d.toDate) };
    const items = createdSlots(d).map((s) => auditText('createdSlot', { id: s.id, day: formatWeekday(s.start), time: formatInstantRange(s.start, s.end) }));
    // The ids are in the items (or, for older records without them, in the CSV's Target).
    return { text: times.length ? auditText('slotsCreatedAt', { ...values, times: times.join(', ') }) : auditText('slotsCreated', values), items };
  }
  return { text: record.target ?? '', items: [] };
}

/** A person's records found, as the privacy page counted them (0 where a kind is missing). */
const foundCounts = (found: Record<string, unknown>) =>
  Object.fromEntries(['bookings', 'payments', 'waitlistEntries', 'consents', 'mails'].map((kind) => [kind, typeof found[kind] === 'number' ? found[kind] : 0]));

/** The record's detail in words ('' when it has none): moves, refunds, slot times. Several slots created: the summary. */
export function detailText(record: Pick<AuditRecord, 'action' | 'detail'> & { target?: string | null }): string {
  const d = record.detail;
  if (!d) return '';
  const parts: string[] = [];
  if (typeof d.count === 'number') parts.push(targetSummary(record).text);
  else if (d.from !== undefined || d.to !== undefined) parts.push(auditText('moved', { from: when(d.from) ?? '?', to: when(d.to) ?? '?' }));
  else if (typeof d.start === 'string') parts.push(when(d.start)!);
  if (typeof d.refund === 'boolean') parts.push(auditText(d.refund ? 'withRefund' : 'noRefund'));
  const refund = money(d.refundSen) ?? money(d.amountSen);
  if (refund && (record.action !== 'booking_cancelled_by_staff' || d.refund)) parts.push(refund);
  if (typeof d.school === 'string') parts.push(d.school);
  // A person's data looked at or exported: what was found, and the file's format.
  if (d.found && typeof d.found === 'object') parts.push(auditText('found', foundCounts(d.found as Record<string, unknown>)));
  if (typeof d.format === 'string') parts.push(d.format.toUpperCase());
  return parts.join('; ');
}
