// A day's visits, in one SQL statement: what the unconfirmed list (issue 38) and the staff's Today view (issue 40) read.
import { sql } from 'drizzle-orm';
import { midnightInMY } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';

/** One child seen at a visit: its place in the booking (a staff booking's seat), name ('' when none was asked) and school. */
export type VisitChild = { position: number; name: string; school: string };
/** A booking at one time, with the children seen then. */
export type Visit = {
  reference: string;
  start: string;
  end: string;
  visitorName: string;
  visitorContactNo: string;
  children: VisitChild[];
  /** False for a slot staff booked with no payment behind it. */
  paid: boolean;
};

type Row = {
  reference: string;
  start_at: string | Date;
  end_at: string | Date;
  visitor_name: string | null;
  visitor_contact_no: string | null;
  names: (string | null)[] | null;
  schools: (string | null)[] | null;
  positions: (number | string)[] | null;
  paid: boolean;
};

/**
 * The visits starting on `day` (GMT+8, YYYY-MM-DD, already validated) that are booked and not cancelled, by start then
 * reference; `unconfirmedOnly`: only those no parent has confirmed. A visit is a booking at one time: a booking of
 * several children is one visit per time its children still booked sit at (a child moved alone to another time or day
 * is seen there), naming the children seen then; a booking staff made with no payment is one too.
 */
export async function visitsOn(db: DbOrTx, day: string, { unconfirmedOnly = false } = {}): Promise<Visit[]> {
  const from = new Date(midnightInMY(day));
  const to = new Date(from.getTime() + 86_400_000);
  const result = await db.execute(sql`
    WITH seen AS (
      -- A booking of one child: its slot.
      SELECT p.reference, p.visitor_name, p.visitor_contact_no, s.start_at, s.end_at, p.child_name, p.selected_school AS school, 1 AS position, true AS paid
      FROM payments p JOIN slots s ON s.id = p.slot_id
      WHERE p.booking_status = 'booked' AND (${!unconfirmedOnly}::boolean OR p.confirmed_by_parent_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM payment_children c WHERE c.payment_id = p.id)
      UNION ALL
      -- A booking of several: each child still booked, at the seat they sit on.
      SELECT p.reference, p.visitor_name, p.visitor_contact_no, s.start_at, s.end_at, c.child_name, c.selected_school, c.position, true
      FROM payments p
      JOIN payment_children c ON c.payment_id = p.id AND c.cancelled_at IS NULL
      JOIN slots s ON s.id = c.slot_id
      WHERE p.booking_status = 'booked' AND (${!unconfirmedOnly}::boolean OR p.confirmed_by_parent_at IS NULL)
      UNION ALL
      -- A slot staff booked with no payment behind it (nothing can confirm it but a call).
      SELECT s.booking_reference, s.visitor_name, s.visitor_contact_no, s.start_at, s.end_at, s.child_name, s.selected_school, s.seat, false
      FROM slots s
      WHERE s.status = 'booked' AND s.deleted_at IS NULL AND s.booking_reference IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.reference = s.booking_reference AND p.booking_status IS NOT NULL)
    )
    SELECT reference, start_at, max(end_at) AS end_at, max(visitor_name) AS visitor_name, max(visitor_contact_no) AS visitor_contact_no,
           array_agg(child_name ORDER BY position) AS names, array_agg(school ORDER BY position) AS schools,
           array_agg(position ORDER BY position) AS positions, bool_or(paid) AS paid
    FROM seen
    WHERE start_at >= ${from.toISOString()}::timestamptz AND start_at < ${to.toISOString()}::timestamptz
    GROUP BY reference, start_at
    ORDER BY start_at, reference`);
  return (result as unknown as { rows: Row[] }).rows.map((r) => {
    // PGlite and node-postgres both answer arrays as arrays; anything else is read as none.
    const names = Array.isArray(r.names) ? r.names : [];
    const schools = Array.isArray(r.schools) ? r.schools : [];
    const positions = Array.isArray(r.positions) ? r.positions : [];
    return {
      reference: r.reference,
      start: new Date(r.start_at).toISOString(),
      end: new Date(r.end_at).toISOString(),
      visitorName: r.visitor_name ?? '',
      visitorContactNo: r.visitor_contact_no ?? '',
      children: positions.map((position, i) => ({ position: Number(position), name: names[i] ?? '', school: schools[i] ?? '' })),
      paid: r.paid === true,
    };
  });
}
