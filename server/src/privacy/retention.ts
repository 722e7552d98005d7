import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../base/db/connection';
import { recordAudit } from '../audit';
import { deleteDocumentsOf, type DocumentStore } from '../documents';
import type { JobEngine } from '../base/jobs/engine';
import { anonymiseAuditEntries, anonymiseDueAuditEntries, anonymiseMailRecipients, type AnonymisedPerson } from './anonymise-records';

/** `retention` in brand.config.json: how long personal data is kept (issue 28's defaults). */
export type RetentionPolicy = {
  /**
   * A paid booking and its payment: kept this many years after the visit for the school's accounts, then anonymised.
   * An answered access or correction request (who asked, the staff's note) is kept as long after its answer.
   */
  paidBookingYears: number;
  /** A cancelled or never-paid booking: anonymised this many months after its visit date. */
  unpaidOrCancelledMonths: number;
  /** A waitlist entry: anonymised this many days after it ends (booked, expired, left or removed). */
  waitlistDaysAfterEnd: number;
  /** A sent mail's body in the outbox: emptied this many days after it was sent. */
  mailBodyDays: number;
};

export type RetentionCounts = {
  payments: number;
  slots: number;
  /** Children of a booking of several (issue 37) whose name and year went. */
  paymentChildren: number;
  /** History entries of a booking that named one of its children (a child's own cancel or refund). */
  bookingEvents: number;
  mailBodies: number;
  mailRecipients: number;
  auditEntries: number;
  waitlistEntries: number;
  privacyRequests: number;
  /** WhatsApp messages (issue 38) whose body went (as mail bodies do) or whose number went with its booking's parent. */
  whatsappMessages: number;
  /** Parents' WhatsApp replies whose text and number went (as mail bodies do). */
  whatsappReplies: number;
  /** Documents' files (issue 40) deleted from the store with their rows: an anonymised booking's, and removed ones left over. */
  documentFiles: number;
};

/** What replaces a name: says what happened, and is how a row already anonymised is recognised. */
export const ANONYMISED = '[anonymised]';

const monthsBefore = (now: Date, months: number) => {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
};

/**
 * Applies the retention policy as of `now`: anonymises the personal data the policy says is due and nothing else
 * (amounts, statuses, references and slot times stay, so money totals and slot history stay right), and records the
 * counts in the audit trail. Idempotent: an anonymised row no longer matches, so a second run changes nothing. Each
 * statement is one conditional UPDATE, so two runs at once (any processes) each anonymise a row at most once: the
 * second waits on the first's row lock and then finds the row no longer matches.
 */
export async function applyRetention(db: DbOrTx, now: Date, policy: RetentionPolicy, store?: DocumentStore): Promise<RetentionCounts> {
  const paidBefore = monthsBefore(now, policy.paidBookingYears * 12);
  const unpaidBefore = monthsBefore(now, policy.unpaidOrCancelledMonths);
  const mailBefore = new Date(now.getTime() - policy.mailBodyDays * 86_400_000);
  return db.transaction(async (tx) => {
    // A payment's visit is its slot's start. Paid and still booked: the long period; cancelled, refunded or never paid: the short one.
    const payments = (await tx.execute(sql`
      UPDATE payments p SET visitor_name = ${ANONYMISED}, visitor_email = 'anonymised-' || p.id || '@invalid',
        visitor_contact_no = '', child_name = NULL, child_year = NULL, updated_at = ${now}
      FROM slots s, payments old
      WHERE old.id = p.id AND s.id = p.slot_id AND p.visitor_name <> ${ANONYMISED}
        AND ((p.status = 'completed' AND p.booking_status IS DISTINCT FROM 'cancelled' AND s.start_at < ${paidBefore})
          OR ((p.status <> 'completed' OR p.booking_status = 'cancelled') AND s.start_at < ${unpaidBefore}))
      RETURNING p.id AS "paymentId", p.reference, old.visitor_name AS name, old.visitor_email AS email, old.visitor_contact_no AS phone, old.child_name AS child`)) as unknown as { rows: AnonymisedPerson[] };
    // Issue 40: an anonymised booking's documents leave the store, then their rows (a store failure keeps the row for the
    // next run; a run rolled back after a delete finds the object gone and drops the row then).
    const withDocuments = (await tx.execute(sql`
      SELECT p.id FROM payments p WHERE p.visitor_name = ${ANONYMISED} AND (EXISTS (SELECT 1 FROM document_files f WHERE f.payment_id = p.id)
        OR EXISTS (SELECT 1 FROM document_marks m WHERE m.payment_id = p.id) OR EXISTS (SELECT 1 FROM registration_form_ticks t WHERE t.payment_id = p.id))`)) as unknown as { rows: { id: string }[] };
    const documentFiles = store ? await deleteDocumentsOf(tx, store, withDocuments.rows.map((r) => r.id)) : 0;
    // The children of a booking of several (issue 37) and its history's child names go with their payment: those of
    // every anonymised payment, so none an earlier run missed survives, and a second run finds none left.
    const children = (await tx.execute(sql`
      UPDATE payment_children c SET child_name = ${ANONYMISED}, child_year = ''
      FROM payments p, payment_children old
      WHERE p.id = c.payment_id AND p.visitor_name = ${ANONYMISED} AND c.child_name <> ${ANONYMISED}
        AND old.payment_id = c.payment_id AND old.position = c.position
      RETURNING p.reference, old.child_name AS child`)) as unknown as { rows: { reference: string; child: string }[] };
    const events = (await tx.execute(sql`
      UPDATE booking_events e SET child_name = NULL
      FROM payments p
      WHERE p.id = e.payment_id AND p.visitor_name = ${ANONYMISED} AND e.child_name IS NOT NULL
      RETURNING e.id`)) as unknown as { rows: unknown[] };
    // A booked slot carries its visitor: anonymised on its booking's schedule (a paid one's reference names a completed payment).
    const slots = (await tx.execute(sql`
      UPDATE slots s SET visitor_name = ${ANONYMISED}, visitor_email = NULL, visitor_contact_no = NULL, child_name = NULL, child_year = NULL
      FROM slots old
      WHERE old.id = s.id AND s.status = 'booked' AND s.visitor_name IS DISTINCT FROM ${ANONYMISED}
        AND ((EXISTS (SELECT 1 FROM payments p WHERE p.reference = s.booking_reference AND p.status = 'completed') AND s.start_at < ${paidBefore})
          OR (NOT EXISTS (SELECT 1 FROM payments p WHERE p.reference = s.booking_reference AND p.status = 'completed') AND s.start_at < ${unpaidBefore}))
      RETURNING s.booking_reference AS reference, old.visitor_name AS name, old.visitor_email AS email, old.visitor_contact_no AS phone, old.child_name AS child`)) as unknown as { rows: AnonymisedPerson[] };
    const mails = (await tx.execute(sql`
      UPDATE mail_outbox SET text_body = '', html_body = '', ics = NULL
      WHERE status = 'sent' AND sent_at < ${mailBefore} AND (text_body <> '' OR html_body <> '' OR ics IS NOT NULL)
      RETURNING id`)) as unknown as { rows: unknown[] };
    const waitlistBefore = new Date(now.getTime() - policy.waitlistDaysAfterEnd * 86_400_000);
    const waitlist = (await tx.execute(sql`
      UPDATE waitlist_entries SET name = ${ANONYMISED}, email = 'anonymised-' || id || '@invalid', phone = '', child_name = NULL, child_year = NULL
      WHERE ended_at < ${waitlistBefore.toISOString()}::timestamptz AND state NOT IN ('waiting', 'offered') AND name <> ${ANONYMISED}
      RETURNING id`)) as unknown as { rows: unknown[] };
    // The request log names who asked: an answered request is the record of its answer as long as a paid booking is
    // kept, then who asked and the staff's note go (its kind, dates and handler stay).
    const requests = (await tx.execute(sql`
      UPDATE privacy_requests r SET note = '',
        person_email = CASE WHEN r.person_email IS NULL THEN NULL ELSE 'anonymised-request-' || r.id || '@invalid' END,
        person_phone = CASE WHEN r.person_phone IS NULL THEN NULL ELSE ${ANONYMISED} END
      FROM privacy_requests old
      WHERE old.id = r.id AND r.answered_at < ${paidBefore}
        AND r.person_email IS DISTINCT FROM 'anonymised-request-' || r.id || '@invalid' AND r.person_phone IS DISTINCT FROM ${ANONYMISED}
      RETURNING old.person_email AS email, old.person_phone AS phone`)) as unknown as { rows: { email: string | null; phone: string | null }[] };
    // WhatsApp (issue 38): a sent message's body goes when a mail's does, its number with its booking's or entry's
    // parent; a reply's text and number go when a mail body does. A STOP stays (whatsapp_stops): it must keep holding.
    const ownerGone = sql`(EXISTS (SELECT 1 FROM payments p WHERE p.id = m.payment_id AND p.visitor_name = ${ANONYMISED})
      OR EXISTS (SELECT 1 FROM waitlist_offers o JOIN waitlist_entries e ON e.id = o.entry_id WHERE o.id = m.waitlist_offer_id AND e.name = ${ANONYMISED}))`;
    const whatsappMessages = (await tx.execute(sql`
      UPDATE whatsapp_messages m SET request_body = '{}'::jsonb, to_e164 = CASE WHEN ${ownerGone} THEN ${ANONYMISED} ELSE m.to_e164 END
      WHERE m.state NOT IN ('queued', 'sending')
        AND (((m.created_at < ${mailBefore} OR ${ownerGone}) AND m.request_body <> '{}'::jsonb) OR (${ownerGone} AND m.to_e164 <> ${ANONYMISED}))
      RETURNING m.id`)) as unknown as { rows: unknown[] };
    const whatsappReplies = (await tx.execute(sql`
      UPDATE whatsapp_replies SET text = NULL, payload = NULL, from_e164 = ${ANONYMISED}
      WHERE received_at < ${mailBefore} AND from_e164 <> ${ANONYMISED}
      RETURNING id`)) as unknown as { rows: unknown[] };
    // What names the people just anonymised elsewhere: their mails' recipients, and the audit entries about them.
    // Each child of a booking of several is named by its reference too (an audit entry about cancelling that child alone).
    const siblings = children.rows.map(({ reference, child }) => ({ reference, name: null, email: null, phone: null, child }));
    const people = [...payments.rows, ...slots.rows];
    const mailRecipients = await anonymiseMailRecipients(tx, people);
    const asked = requests.rows.map(({ email, phone }) => ({ reference: null, name: null, email, phone, child: null }));
    const auditEntries = (await anonymiseAuditEntries(tx, [...people, ...siblings, ...asked], now)) + (await anonymiseDueAuditEntries(tx, now));
    const counts = {
      payments: payments.rows.length,
      slots: slots.rows.length,
      paymentChildren: children.rows.length,
      bookingEvents: events.rows.length,
      mailBodies: mails.rows.length,
      mailRecipients,
      auditEntries,
      waitlistEntries: waitlist.rows.length,
      privacyRequests: requests.rows.length,
      whatsappMessages: whatsappMessages.rows.length,
      whatsappReplies: whatsappReplies.rows.length,
      documentFiles,
    };
    if (Object.values(counts).some((n) => n > 0))
      await recordAudit(tx, { actor: 'system', action: 'retention_applied', target: null, detail: { ...counts, asOf: now.toISOString() } });
    return counts;
  });
}

/** When the policy is applied: every night at 03:30 in Malaysia, on one process or another (pg-boss's cron). */
export const RETENTION_CRON = '30 3 * * *';

/** Makes the `retention` queue apply the policy (as of `now()` when a job runs; documents deleted from `store`) and schedules it nightly. */
export async function scheduleRetention(jobs: JobEngine, db: DbOrTx, policy: RetentionPolicy, now: () => Date = () => new Date(), store?: DocumentStore): Promise<void> {
  jobs.handle('retention', async () => {
    const done = await applyRetention(db, now(), policy, store);
    return Object.values(done).reduce((sum, n) => sum + n, 0);
  });
  await jobs.cron('retention', RETENTION_CRON);
}
