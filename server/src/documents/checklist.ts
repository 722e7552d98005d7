// The visit's checklist per child ("2 of 4 in", what is missing) for the staff's Today view and the reminder, in one query.
import { sql } from 'drizzle-orm';
import { DOCUMENT_KINDS, requiredDocumentKinds, type BookingChecklist, type DocumentKind } from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';

type Row = { reference: string; position: number; name: string | null; school: string; present: string[] | string | null };

const kindsOf = (value: Row['present']): Set<DocumentKind> =>
  new Set(Array.isArray(value) ? value.filter((k): k is DocumentKind => (DOCUMENT_KINDS as readonly string[]).includes(k)) : []);

/**
 * Each paid booking's children (the ones still booked) with how many of their school's documents are in — uploaded, or
 * marked seen on paper — and which are missing. One SQL statement for all the references; a reference that is not a
 * booking paid online (a staff booking with no payment, an unknown one) is not in the map.
 */
export async function documentChecklistFor(db: DbOrTx, references: string[]): Promise<Map<string, BookingChecklist>> {
  const out = new Map<string, BookingChecklist>();
  if (references.length === 0) return out;
  const result = await db.execute(sql`
    WITH kids AS (
      -- A booking of one child: the payment's own child, at place 1.
      SELECT p.id AS payment_id, p.reference, 1 AS position, p.child_name AS name, p.selected_school AS school
      FROM payments p
      WHERE p.reference = ANY(${sql.param(references)}::text[]) AND p.booking_status IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM payment_children c WHERE c.payment_id = p.id)
      UNION ALL
      -- A booking of several: each child still booked.
      SELECT p.id, p.reference, c.position, c.child_name, c.selected_school
      FROM payments p JOIN payment_children c ON c.payment_id = p.id AND c.cancelled_at IS NULL
      WHERE p.reference = ANY(${sql.param(references)}::text[]) AND p.booking_status IS NOT NULL
    )
    SELECT k.reference, k.position, k.name, k.school,
      ARRAY(
        SELECT f.kind FROM document_files f WHERE f.payment_id = k.payment_id AND f.child_position = k.position AND f.removed_at IS NULL
        UNION
        SELECT m.kind FROM document_marks m WHERE m.payment_id = k.payment_id AND m.child_position = k.position AND m.mark = 'seenOnPaper'
      ) AS present
    FROM kids k
    ORDER BY k.reference, k.position`);
  for (const r of (result as unknown as { rows: Row[] }).rows) {
    const required = requiredDocumentKinds(r.school);
    const present = kindsOf(r.present);
    const missing = required.filter((k) => !present.has(k));
    const entry = out.get(r.reference) ?? { children: [] };
    entry.children.push({ position: Number(r.position), name: r.name ?? '', required: required.length, inCount: required.length - missing.length, missing });
    out.set(r.reference, entry);
  }
  return out;
}

/** What is still missing of one booking, per child (the reminder's list); empty when all is in or the booking is unknown. */
export async function missingDocumentsFor(db: DbOrTx, reference: string): Promise<{ position: number; name: string; missing: DocumentKind[] }[]> {
  const checklist = (await documentChecklistFor(db, [reference])).get(reference);
  return (checklist?.children ?? []).filter((c) => c.missing.length > 0).map(({ position, name, missing }) => ({ position, name, missing }));
}
