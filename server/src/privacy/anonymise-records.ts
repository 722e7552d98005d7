import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../base/db/connection';

/** What replaces personal data (the same words as retention.ts's ANONYMISED; the audit trigger checks for them). */
const ANONYMISED = '[anonymised]';

/** A person whose booking the retention run has just anonymised: the values it held, and its booking reference. */
export type AnonymisedPerson = {
  reference: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  child: string | null;
  /** The payment, when it was one (its mails name it). */
  paymentId?: string | null;
};

type AuditCandidate = { id: number | string; target: string | null; detail: unknown; due: boolean };

/** `value` with every string equal to one of `values` replaced by '[anonymised]' (keys and shape kept). */
function scrub(value: unknown, values: Set<string>): unknown {
  if (typeof value === 'string') return values.has(value) ? ANONYMISED : value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, values));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, values)]));
  return value;
}

/**
 * Audit entries naming the people just anonymised (their booking reference as the target, or their email or phone as
 * a whole value in the detail): the person's name, email, phone and child become '[anonymised]' there too, and a
 * target that is their email or phone. The entry itself stays (who did what, when); the trail's trigger lets an update
 * through only when it does nothing else (migration 0023), and only on an entry at least
 * audit_log_anonymisable_after() old (migration 0030, the figure stated once there). A younger entry (a look-up made
 * after the visit) keeps its values in audit_anonymise_pending until it is old enough: anonymiseDueAuditEntries, on a
 * later run, replaces them. Returns how many entries changed now.
 */
export async function anonymiseAuditEntries(tx: DbOrTx, people: AnonymisedPerson[], now: Date): Promise<number> {
  if (people.length === 0) return 0;
  const references = people.map((p) => p.reference).filter((r): r is string => Boolean(r));
  const given = people.flatMap((p) => [p.email, p.phone]).filter((v): v is string => Boolean(v) && v !== ANONYMISED);
  // An email or phone another booking still holds (the parent booked again) still names a live person: entries are
  // then matched by the anonymised booking's reference only.
  const held = (await tx.execute(sql`
    SELECT v FROM unnest(${sql.param(given)}::text[]) AS v
    WHERE EXISTS (SELECT 1 FROM payments WHERE visitor_email = v OR visitor_contact_no = v)
       OR EXISTS (SELECT 1 FROM slots WHERE status = 'booked' AND (visitor_email = v OR visitor_contact_no = v))`)) as unknown as { rows: { v: string }[] };
  const stillHeld = new Set(held.rows.map((r) => r.v));
  const contacts = given.filter((v) => !stillHeld.has(v));
  const { rows } = (await tx.execute(sql`
    SELECT a.id, a.target, a.detail, ${dueSql(now)} AS due FROM audit_log a
    WHERE a.target = ANY(${sql.param(references)}::text[]) OR a.target = ANY(${sql.param(contacts)}::text[])
       OR (a.detail IS NOT NULL AND EXISTS (
         SELECT 1 FROM jsonb_path_query(a.detail, 'strict $.**') AS v
         WHERE jsonb_typeof(v) = 'string' AND v #>> '{}' = ANY(${sql.param(contacts)}::text[])))
    ORDER BY a.id
    FOR UPDATE`)) as unknown as { rows: AuditCandidate[] };
  let changed = 0;
  for (const row of rows) {
    const text = JSON.stringify(row.detail ?? null);
    // The people this entry names: by its target, or by their email or phone appearing in it as a whole value.
    const named = people.filter(
      (p) =>
        (p.reference && row.target === p.reference) ||
        [p.email, p.phone].some((v) => v && contacts.includes(v) && (row.target === v || text.includes(JSON.stringify(v)))),
    );
    const values = new Set(named.flatMap((p) => [p.name, p.email, p.phone, p.child]).filter((v): v is string => Boolean(v) && v !== ANONYMISED));
    if (values.size === 0) continue;
    if (!row.due) {
      await tx.execute(sql`
        INSERT INTO audit_anonymise_pending (audit_id, vals) VALUES (${row.id}, ${sql.param([...values])}::text[])
        ON CONFLICT (audit_id) DO UPDATE SET vals = ARRAY(SELECT DISTINCT unnest(audit_anonymise_pending.vals || EXCLUDED.vals))`);
      continue;
    }
    if (await scrubEntry(tx, row, values)) changed += 1;
  }
  return changed;
}

/**
 * Whether an audit entry `a` is old enough to anonymise as of `now` (the retention run's clock), never later than the
 * database's own clock, which the trail's trigger goes by.
 */
const dueSql = (now: Date) => sql`a.at < least(${now.toISOString()}::timestamptz, now()) - audit_log_anonymisable_after()`;

/** Replaces `values` in entry `row` as anonymiseAuditEntries does; whether it changed anything. */
async function scrubEntry(tx: DbOrTx, row: { id: number | string; target: string | null; detail: unknown }, values: Set<string>): Promise<boolean> {
  const text = JSON.stringify(row.detail ?? null);
  const detail = scrub(row.detail ?? null, values);
  const target = row.target !== null && values.has(row.target) ? ANONYMISED : row.target;
  if (JSON.stringify(detail) === text && target === row.target) return false;
  await tx.execute(sql`UPDATE audit_log SET detail = ${detail === null ? null : JSON.stringify(detail)}::jsonb, target = ${target} WHERE id = ${row.id}`);
  return true;
}

/**
 * The entries anonymiseAuditEntries left waiting (too young then) that are now old enough: their values are replaced
 * and they leave audit_anonymise_pending. Returns how many entries changed.
 */
export async function anonymiseDueAuditEntries(tx: DbOrTx, now: Date): Promise<number> {
  const { rows } = (await tx.execute(sql`
    DELETE FROM audit_anonymise_pending p USING audit_log a
    WHERE a.id = p.audit_id AND ${dueSql(now)}
    RETURNING a.id, a.target, a.detail, p.vals`)) as unknown as { rows: { id: number | string; target: string | null; detail: unknown; vals: string[] }[] };
  let changed = 0;
  for (const row of rows) if (await scrubEntry(tx, row, new Set(row.vals))) changed += 1;
  return changed;
}

/**
 * The mails of the payments just anonymised, once sent or given up: the recipient becomes an address that names
 * nobody and the subject '[anonymised]' (their bodies go after 90 days already). Mails still to be sent are left.
 */
export async function anonymiseMailRecipients(tx: DbOrTx, people: AnonymisedPerson[]): Promise<number> {
  const paymentIds = people.map((p) => p.paymentId).filter((v): v is string => Boolean(v));
  if (paymentIds.length === 0) return 0;
  const { rows } = (await tx.execute(sql`
    UPDATE mail_outbox SET recipient = 'anonymised-mail-' || id || '@invalid', subject = ${ANONYMISED}
    WHERE status IN ('sent', 'failed') AND subject <> ${ANONYMISED} AND payment_id = ANY(${sql.param(paymentIds)}::text[])
    RETURNING id`)) as unknown as { rows: unknown[] };
  return rows.length;
}
