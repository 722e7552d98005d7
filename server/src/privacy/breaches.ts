import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { breachDeadlines, type Breach, type BreachPerson, type Locale } from 'shared-api/contract';
import { csvFile, phoneCell } from 'shared-api/csv';
import { formatPhone } from 'shared-api/phone';
import type { DbOrTx } from '../base/db/connection';
import { renderBreachNotice } from '../mail';
import { messageIdFor } from '../mail';
import { mailOutbox } from '../mail';
import { ANONYMISED } from './retention';
import type { BreachRow } from './tables';

const DAY_MS = 86_400_000;
/** The instant a GMT+8 day starts. */
const dayStartMY = (day: string) => new Date(`${day}T00:00:00+08:00`);

type Found = { name: string; email: string | null; phone: string | null; locale: string | null; school: string | null; booked_at: string | Date; reference: string | null };

/**
 * The people a breach touches, as a query over the records: every parent whose booking was made within the breach's
 * GMT+8 days (a payment, whatever became of it: their details were given and held; or a booking staff made), and/or
 * at its school. One line per person (by email, else phone), with their latest booking's name, language and school,
 * and every reference. Anonymised records name nobody and are left out.
 */
export async function breachPeople(db: DbOrTx, scope: Pick<BreachRow, 'bookedFrom' | 'bookedTo' | 'school'>): Promise<BreachPerson[]> {
  const from = scope.bookedFrom ? dayStartMY(scope.bookedFrom) : null;
  const until = scope.bookedTo ? new Date(dayStartMY(scope.bookedTo).getTime() + DAY_MS) : null;
  const school = scope.school ?? null;
  const { rows } = (await db.execute(sql`
    SELECT p.visitor_name AS name, p.visitor_email AS email, p.visitor_contact_no AS phone, p.locale, p.selected_school AS school,
           p.created_at AS booked_at, p.reference
    FROM payments p
    WHERE p.visitor_name <> ${ANONYMISED}
      AND (${from}::timestamptz IS NULL OR (p.created_at >= ${from}::timestamptz AND p.created_at < ${until}::timestamptz))
      AND (${school}::text IS NULL OR p.selected_school = ${school}::text)
    UNION ALL
    SELECT s.visitor_name, s.visitor_email, s.visitor_contact_no, c.language, s.selected_school,
           coalesce(s.booked_at, s.created_at), s.booking_reference
    FROM slots s LEFT JOIN consents c ON c.id = s.consent_id
    WHERE s.status = 'booked' AND s.visitor_name IS DISTINCT FROM ${ANONYMISED}
      AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.reference = s.booking_reference)
      AND (${from}::timestamptz IS NULL OR (coalesce(s.booked_at, s.created_at) >= ${from}::timestamptz AND coalesce(s.booked_at, s.created_at) < ${until}::timestamptz))
      AND (${school}::text IS NULL OR s.selected_school = ${school}::text)
    ORDER BY booked_at`)) as unknown as { rows: Found[] };
  const people = new Map<string, BreachPerson>();
  for (const row of rows) {
    const key = row.email ? `e:${row.email.toLowerCase()}` : row.phone ? `p:${row.phone}` : null;
    if (!key) continue;
    const bookedAt = new Date(row.booked_at).toISOString();
    const locale = (['en', 'ms', 'zh'].includes(row.locale ?? '') ? row.locale : 'en') as Locale;
    const known = people.get(key);
    // Rows come oldest first: the latest booking's name, language and school win.
    people.set(key, {
      name: row.name,
      email: row.email,
      phone: row.phone || known?.phone || null,
      locale,
      school: row.school,
      lastBookedAt: bookedAt,
      references: [...(known?.references ?? []), ...(row.reference ? [row.reference] : [])],
    });
  }
  return [...people.values()].sort((a, b) => (a.email ?? a.phone ?? '').localeCompare(b.email ?? b.phone ?? ''));
}

/** A breach as staff read it: its deadlines computed, and how many people its query finds now. */
export function presentBreach(row: BreachRow, affected: number): Breach {
  const { commissionerDueAt, peopleDueAt } = breachDeadlines(row.foundAt, row.commissionerNotifiedAt);
  return {
    id: row.id,
    foundAt: row.foundAt.toISOString(),
    whatHappened: row.whatHappened,
    dataAffected: row.dataAffected,
    whatHappenedMs: row.whatHappenedMs,
    dataAffectedMs: row.dataAffectedMs,
    whatHappenedZh: row.whatHappenedZh,
    dataAffectedZh: row.dataAffectedZh,
    bookedFrom: row.bookedFrom,
    bookedTo: row.bookedTo,
    school: row.school,
    commissionerDueAt: commissionerDueAt.toISOString(),
    commissionerNotifiedAt: row.commissionerNotifiedAt?.toISOString() ?? null,
    peopleDueAt: peopleDueAt.toISOString(),
    peopleNotifiedAt: row.peopleNotifiedAt?.toISOString() ?? null,
    affected,
    peopleNotified: row.peopleNotified,
    recordedBy: row.recordedBy,
    notifyAskedBy: row.notifyAskedBy,
    notifyAskedAt: row.notifyAskedAt?.toISOString() ?? null,
  };
}

/** The breach's own words in `locale` when the school gave them, else English. */
const wordsIn = (row: BreachRow, locale: Locale) => ({
  whatHappened: (locale === 'ms' ? row.whatHappenedMs : locale === 'zh' ? row.whatHappenedZh : null) ?? row.whatHappened,
  dataAffected: (locale === 'ms' ? row.dataAffectedMs : locale === 'zh' ? row.dataAffectedZh : null) ?? row.dataAffected,
});

/**
 * The notice to each person the breach touches who has an email, in their booking's language, written to the outbox
 * in the caller's transaction (the `mail` job sends it). One message per breach and address: a repeat is ignored.
 */
export async function queueBreachNotices(tx: DbOrTx, row: BreachRow, people: BreachPerson[], mailFrom: string): Promise<number> {
  const mails = people
    .filter((p): p is BreachPerson & { email: string } => Boolean(p.email))
    .map((p) => {
      const mail = renderBreachNotice({ locale: p.locale, name: p.name, foundAt: row.foundAt, ...wordsIn(row, p.locale) });
      return {
        paymentId: null,
        kind: 'breach_notification' as const,
        recipient: p.email,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        ics: null,
        locale: p.locale,
        messageId: messageIdFor('breach_notification', `breach-${row.id}`, mailFrom, createHash('sha256').update(p.email.toLowerCase()).digest('hex').slice(0, 24)),
      };
    });
  if (mails.length === 0) return 0;
  const written = await tx.insert(mailOutbox).values(mails).onConflictDoNothing().returning({ id: mailOutbox.id });
  return written.length;
}

/**
 * The affected people's contacts as a CSV file (name, email, phone, language, school, last booked, references): the
 * product's one CSV writer (shared-api/csv: the BOM, the formula guard), the phone as staff read it and kept as text.
 */
export function breachPeopleCsv(people: BreachPerson[]): string {
  const columns = ['name', 'email', 'phone', 'locale', 'school', 'lastBookedAt', 'references'] as const;
  return csvFile(
    columns,
    people.map((p) => [p.name, p.email, phoneCell(formatPhone(p.phone)), p.locale, p.school, p.lastBookedAt, p.references.join(' ')]),
  );
}
