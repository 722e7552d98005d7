import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { STUCK_MAIL_MINUTES, type MailBacklog, type StuckMail } from 'shared-api/contract';
import type { Db } from '../base/db/connection';
import { mailOutbox } from '../mail';
import { payments } from '../payments';

/** Unsent for over STUCK_MAIL_MINUTES (still retried), or given up: what /health counts and staff are shown. */
const isStuck = or(
  and(inArray(mailOutbox.status, ['pending', 'sending']), lt(mailOutbox.createdAt, sql`now() - make_interval(mins => ${STUCK_MAIL_MINUTES})`)),
  eq(mailOutbox.status, 'failed'),
);
const ageMinutes = sql<number>`floor(extract(epoch from now() - ${mailOutbox.createdAt}) / 60)::int`;

/** How many messages are stuck and how long the oldest has waited (database clock). */
export async function mailBacklog(db: Db): Promise<MailBacklog> {
  const [row] = await db
    .select({ stuck: sql<number>`count(*)::int`, oldestStuckMinutes: sql<number | null>`max(${ageMinutes})` })
    .from(mailOutbox)
    .where(isStuck);
  return { stuck: row?.stuck ?? 0, oldestStuckMinutes: row?.oldestStuckMinutes ?? null };
}

/** Error texts shown to staff are cut to this many characters. */
export const LAST_ERROR_CHARS = 200;

/** The stuck messages, oldest first, with their payment's reference and the total count. */
export async function stuckMail(db: Db, limit: number): Promise<{ total: number; items: StuckMail[] }> {
  const rows = await db
    .select({
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      status: mailOutbox.status,
      // A staff password reset belongs to no payment.
      paymentReference: sql<string>`coalesce(${payments.reference}, '—')`,
      recipient: mailOutbox.recipient,
      attempts: mailOutbox.attempts,
      lastError: sql<string | null>`left(${mailOutbox.lastError}, ${LAST_ERROR_CHARS})`,
      ageMinutes,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(mailOutbox)
    .leftJoin(payments, eq(payments.id, mailOutbox.paymentId))
    .where(isStuck)
    .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id))
    .limit(limit);
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map(({ total: _total, status, ...item }) => ({ ...item, status: status as StuckMail['status'] })),
  };
}
