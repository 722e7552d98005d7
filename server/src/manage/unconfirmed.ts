// A day's visits no parent has confirmed (issue 38), so the office can call: computed in one SQL statement.
import { sql } from 'drizzle-orm';
import { midnightInMY, type UnconfirmedVisit } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';

type Row = {
  reference: string;
  start_at: string | Date;
  end_at: string | Date;
  visitor_name: string | null;
  visitor_contact_no: string | null;
  children: string[] | string | null;
  paid: boolean;
};

/** PGlite and node-postgres both answer text[] as an array; a literal `{a,b}` is read defensively. */
const names = (value: Row['children']): string[] =>
  Array.isArray(value) ? value.filter((n): n is string => typeof n === 'string' && n !== '') : [];

/**
 * The visits starting on `day` (GMT+8, YYYY-MM-DD, already validated) that are booked, not cancelled and not confirmed
 * by the parent, by start then reference. A visit is a booking at one time: a booking of several children is one visit
 * per time its children still booked sit at (a child moved alone to another time or day is seen there), naming the
 * children seen then; a booking staff made with no payment is one too (nothing can confirm it but a call).
 */
export async function unconfirmedVisits(db: DbOrTx, day: string): Promise<UnconfirmedVisit[]> {
  const from = new Date(midnightInMY(day));
  const to = new Date(from.getTime() + 86_400_000);
  const result = await db.execute(sql`
    WITH seen AS (
      -- A booking of one child: its slot.
      SELECT p.reference, p.visitor_name, p.visitor_contact_no, s.start_at, s.end_at, p.child_name, 1 AS position, true AS paid
      FROM payments p JOIN slots s ON s.id = p.slot_id
      WHERE p.booking_status = 'booked' AND p.confirmed_by_parent_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM payment_children c WHERE c.payment_id = p.id)
      UNION ALL
      -- A booking of several: each child still booked, at the seat they sit on.
      SELECT p.reference, p.visitor_name, p.visitor_contact_no, s.start_at, s.end_at, c.child_name, c.position, true
      FROM payments p
      JOIN payment_children c ON c.payment_id = p.id AND c.cancelled_at IS NULL
      JOIN slots s ON s.id = c.slot_id
      WHERE p.booking_status = 'booked' AND p.confirmed_by_parent_at IS NULL
      UNION ALL
      -- A slot staff booked with no payment behind it.
      SELECT s.booking_reference, s.visitor_name, s.visitor_contact_no, s.start_at, s.end_at, s.child_name, s.seat, false
      FROM slots s
      WHERE s.status = 'booked' AND s.deleted_at IS NULL AND s.booking_reference IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.reference = s.booking_reference AND p.booking_status IS NOT NULL)
    )
    SELECT reference, start_at, max(end_at) AS end_at, max(visitor_name) AS visitor_name, max(visitor_contact_no) AS visitor_contact_no,
           array_agg(child_name ORDER BY position) FILTER (WHERE child_name IS NOT NULL) AS children, bool_or(paid) AS paid
    FROM seen
    WHERE start_at >= ${from.toISOString()}::timestamptz AND start_at < ${to.toISOString()}::timestamptz
    GROUP BY reference, start_at
    ORDER BY start_at, reference`);
  return (result as unknown as { rows: Row[] }).rows.map((r) => ({
    reference: r.reference,
    start: new Date(r.start_at).toISOString(),
    end: new Date(r.end_at).toISOString(),
    visitorName: r.visitor_name ?? '',
    visitorContactNo: r.visitor_contact_no ?? '',
    children: names(r.children),
    paid: r.paid === true,
  }));
}
