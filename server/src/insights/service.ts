import { sql, type SQL } from 'drizzle-orm';
import {
  BookingMessage,
  brand,
  HOLD_TIME_WINDOW_MINUTES,
  midnightInMY,
  periodEndExclusive,
  type Attendance,
  type CheckoutFunnel,
  type FillRate,
  type Money,
  type PopularTimes,
  type WaitlistInsights,
} from 'shared-api/contract';
import type { DbOrTx } from '../base/db/connection';

// Every figure is read from the tables that own the data (slots, payments, payment_children, booking_events,
// waitlist_entries / offers, hold_grants): no copy, no cache. Times are grouped by their GMT+8 wall clock
// (Malaysia keeps one offset, so `+ 8 hours` on UTC is exact and needs no time-zone database).

export type Period = { from: string; to: string; school?: string };

/** The GMT+8 wall clock of a timestamptz column, as a timestamp. */
const local = (column: SQL) => sql`((${column}) AT TIME ZONE 'UTC' + interval '8 hours')`;
/** The Monday (YYYY-MM-DD) of the GMT+8 week an instant falls in. */
const weekOf = (column: SQL) => sql`to_char(date_trunc('week', ${local(column)}), 'YYYY-MM-DD')`;

const bounds = (p: Period) => ({ start: new Date(midnightInMY(p.from)).toISOString(), end: new Date(midnightInMY(periodEndExclusive(p.to))).toISOString() });
/** `column` within the period, as instants: [from 00:00 GMT+8, the day after to 00:00 GMT+8). */
const within = (column: SQL, p: Period) => {
  const { start, end } = bounds(p);
  return sql`${column} >= ${start}::timestamptz AND ${column} < ${end}::timestamptz`;
};
const schoolIs = (column: SQL, p: Period) => (p.school ? sql`${column} = ${p.school}` : sql`TRUE`);

/** The Mondays of every week the period touches, in order. */
const weeksOf = (p: Period) => sql`SELECT to_char(w, 'YYYY-MM-DD') AS week FROM generate_series(date_trunc('week', ${p.from}::date), ${p.to}::date, interval '1 week') AS w`;

/** The schools a per-school answer lists: the one filtered on, or every school of the group. */
const schoolsOf = (p: Period): string[] => (p.school ? [p.school] : brand.schools.map((s) => s.name));

const rowsOf = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
const percent = (part: number, whole: number, decimals = 0): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 100 * 10 ** decimals) / 10 ** decimals;

/**
 * Seats booked of seats offered per week. The timetable is shared by the schools (a seat gets its school when booked),
 * so a school's fill rate is the seats its families booked of all the seats offered.
 */
export async function fillRate(db: DbOrTx, p: Period): Promise<FillRate> {
  const weeks = await rowsOf<{ week: string }>(db, weeksOf(p));
  const rows = await rowsOf<{ week: string; school: string | null; booked: boolean; n: number }>(
    db,
    // Grouped by the week's first instant and only the groups formatted: to_char on every seat took a third of a
    // season's query.
    sql`SELECT to_char(week, 'YYYY-MM-DD') AS week, school, booked, n FROM (
          SELECT date_trunc('week', ${local(sql`start_at`)}) AS week, selected_school AS school, status = 'booked' AS booked, count(*)::int AS n
          FROM slots WHERE deleted_at IS NULL AND ${within(sql`start_at`, p)}
          GROUP BY 1, 2, 3) AS w`,
  );
  const schools = schoolsOf(p);
  return {
    weeks: weeks.map(({ week }) => {
      const here = rows.filter((r) => r.week === week);
      const seatsOffered = here.reduce((sum, r) => sum + r.n, 0);
      const bySchool = schools.map((school) => ({
        school,
        seatsBooked: here.filter((r) => r.booked && r.school === school).reduce((sum, r) => sum + r.n, 0),
      }));
      const seatsBooked = p.school ? bySchool[0].seatsBooked : here.filter((r) => r.booked).reduce((sum, r) => sum + r.n, 0);
      return { weekStart: week, seatsOffered, seatsBooked, fillRatePercent: percent(seatsBooked, seatsOffered), bySchool };
    }),
  };
}

/** Seats booked per weekday and GMT+8 start time of the visits in the period. */
export async function popularTimes(db: DbOrTx, p: Period): Promise<PopularTimes> {
  const cells = await rowsOf<{ weekday: number; time: string; seatsBooked: number }>(
    db,
    // Grouped by the minute of the day, formatted per cell, not per seat (as fill-rate's weeks).
    sql`SELECT weekday, to_char(minute::interval, 'HH24:MI') AS time, n AS "seatsBooked" FROM (
          SELECT extract(isodow FROM ${local(sql`start_at`)})::int AS weekday, date_trunc('minute', ${local(sql`start_at`)})::time AS minute,
                 count(*)::int AS n
          FROM slots WHERE deleted_at IS NULL AND status = 'booked' AND ${within(sql`start_at`, p)} AND ${schoolIs(sql`selected_school`, p)}
          GROUP BY 1, 2) AS cells
        ORDER BY 1, 2`,
  );
  return { cells };
}

/** Entries that never became one (not confirmed, or disowned by the address's owner) are not demand. */
const NOT_AN_ENTRY = ['pending', 'unconfirmed', 'disowned'];

/**
 * Waitlist demand: entries joining per week, the offers made in the period and their outcome, and for the seats a
 * cancellation freed in the period, the median minutes until a later payment booked the seat again.
 */
export async function waitlistInsights(db: DbOrTx, p: Period): Promise<WaitlistInsights> {
  // Independent reads, asked at once (each on a connection of the pool).
  const [weeks, [offers], [rebooking]] = await Promise.all([
    rowsOf<{ weekStart: string; entries: number }>(
      db,
      sql`WITH weeks AS (${weeksOf(p)}),
          joined AS (
            SELECT ${weekOf(sql`joined_at`)} AS week, count(*)::int AS n FROM waitlist_entries
            WHERE ${within(sql`joined_at`, p)} AND ${schoolIs(sql`school`, p)}
              AND state NOT IN (${sql.join(NOT_AN_ENTRY.map((s) => sql`${s}`), sql`, `)})
            GROUP BY 1)
          SELECT weeks.week AS "weekStart", COALESCE(joined.n, 0)::int AS entries FROM weeks LEFT JOIN joined USING (week) ORDER BY weeks.week`,
    ),
    rowsOf<WaitlistInsights['offers']>(
      db,
      sql`SELECT count(*)::int AS made,
                 count(*) FILTER (WHERE o.outcome = 'booked')::int AS accepted,
                 count(*) FILTER (WHERE o.outcome = 'declined')::int AS passed,
                 count(*) FILTER (WHERE o.outcome = 'expired')::int AS expired,
                 count(*) FILTER (WHERE o.outcome = 'cancelled')::int AS cancelled,
                 count(*) FILTER (WHERE o.outcome IS NULL)::int AS open
          FROM waitlist_offers o JOIN waitlist_entries e ON e.id = o.entry_id
          WHERE ${within(sql`o.created_at`, p)} AND ${schoolIs(sql`e.school`, p)}`,
    ),
    // A seat is freed by a cancelled booking of one child, by each child still booked when a booking of several is
    // cancelled, and by one child's own cancel; it is booked again by the next paid payment holding it.
    rowsOf<{ freed: number; rebooked: number; medianMinutes: number | string | null }>(
      db,
      sql`WITH freed AS (
            SELECT p.slot_id, p.cancelled_at AS at, p.selected_school AS school FROM payments p
            WHERE p.booking_status = 'cancelled' AND NOT EXISTS (SELECT 1 FROM payment_children c WHERE c.payment_id = p.id)
            UNION ALL
            SELECT c.slot_id, p.cancelled_at, c.selected_school FROM payments p JOIN payment_children c ON c.payment_id = p.id
            WHERE p.booking_status = 'cancelled' AND c.cancelled_at IS NULL
            UNION ALL
            SELECT c.slot_id, c.cancelled_at, c.selected_school FROM payment_children c WHERE c.cancelled_at IS NOT NULL
          ),
          bookings AS (
            SELECT p.slot_id, p.completed_at AS at FROM payments p WHERE p.completed_at IS NOT NULL
            UNION ALL
            SELECT c.slot_id, p.completed_at FROM payments p JOIN payment_children c ON c.payment_id = p.id WHERE p.completed_at IS NOT NULL
          ),
          again AS (
            SELECT f.at, (SELECT min(b.at) FROM bookings b WHERE b.slot_id = f.slot_id AND b.at > f.at) AS next_at
            FROM freed f WHERE ${within(sql`f.at`, p)} AND ${schoolIs(sql`f.school`, p)}
          )
          SELECT count(*)::int AS freed, count(next_at)::int AS rebooked,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM next_at - at) / 60) AS "medianMinutes"
          FROM again`,
    ),
  ]);
  const median = rebooking.medianMinutes == null ? null : Math.round(Number(rebooking.medianMinutes) * 10) / 10;
  return { weeks, offers, rebooking: { freed: rebooking.freed, rebooked: rebooking.rebooked, medianMinutes: median } };
}

/** Money arrived: completed, or marked for refund or refunded afterwards. */
const PAID = sql`p.status IN ('completed', 'refund_pending', 'refunded')`;

/**
 * The checkout funnel of the period: holds taken, and the payments started with what became of them, per payment
 * method. A hold is counted by its token: every payment's, and those hold_grants still keeps of holds never paid for.
 */
export async function checkoutFunnel(db: DbOrTx, p: Period): Promise<CheckoutFunnel> {
  // Independent reads, asked at once (each on a connection of the pool).
  const [byMethod, [{ paymentHolds }], [{ unpaidHolds }]] = await Promise.all([
    // Each payment is counted once in the inner query by (method, status, expired), a few dozen groups; the outcomes
    // are summed from those. (Seven filtered counts per payment cost a whole season three times as much.)
    rowsOf<CheckoutFunnel['byMethod'][number]>(
      db,
      sql`SELECT method, sum(n)::int AS started,
                 COALESCE(sum(n) FILTER (WHERE ${PAID}), 0)::int AS paid,
                 COALESCE(sum(n) FILTER (WHERE p.status = 'failed' AND NOT p.expired), 0)::int AS failed,
                 COALESCE(sum(n) FILTER (WHERE p.status = 'cancelled'), 0)::int AS cancelled,
                 COALESCE(sum(n) FILTER (WHERE p.status = 'failed' AND p.expired), 0)::int AS expired,
                 COALESCE(sum(n) FILTER (WHERE p.status IN ('pending', 'processing')), 0)::int AS open
          FROM (SELECT COALESCE(p.method, 'unknown') AS method, p.status, p.failure_reason IS NOT DISTINCT FROM ${BookingMessage.sessionExpired} AS expired,
                       count(*) AS n
                FROM payments p WHERE ${within(sql`p.created_at`, p)} AND ${schoolIs(sql`p.selected_school`, p)}
                GROUP BY 1, 2, 3) AS p
          GROUP BY 1 ORDER BY 2 DESC, 1`,
    ),
    // A hold is one token: the payments' distinct tokens, plus the grants of the period no payment of the period was
    // started from (the next read).
    rowsOf<{ paymentHolds: number }>(
      db,
      // Sorted bytewise (COLLATE "C": equal text is equal bytes either way): about 15 % cheaper than hashing a season's.
      sql`SELECT count(DISTINCT p.hold_token COLLATE "C")::int AS "paymentHolds" FROM payments p
          WHERE ${within(sql`p.created_at`, p)} AND ${schoolIs(sql`p.selected_school`, p)}`,
    ),
    // Only payments started after the earliest such grant (less the longest a hold lives) can match one, so only those
    // are hashed, not a season's. hold_grants has no school: with a school chosen, only payments count.
    p.school
      ? [{ unpaidHolds: 0 }]
      : rowsOf<{ unpaidHolds: number }>(
          db,
          // NOT IN, planned as a hashed subplan: a NOT EXISTS became, for some periods, a merge anti join sorting both
          // sides' 64-character hashes in the database's collation (the next 4 weeks: 70 ms under EXPLAIN ANALYZE).
          sql`SELECT count(*)::int AS "unpaidHolds" FROM (SELECT DISTINCT g.token_hash FROM hold_grants g WHERE ${within(sql`g.started_at`, p)}
                AND g.token_hash NOT IN (
                  SELECT encode(sha256(convert_to(p.hold_token, 'UTF8')), 'hex') FROM payments p WHERE ${within(sql`p.created_at`, p)}
                    AND p.created_at >= (SELECT min(started_at) FROM hold_grants WHERE ${within(sql`started_at`, p)}) - make_interval(mins => ${HOLD_TIME_WINDOW_MINUTES}))) AS g`,
        ),
  ]);
  const holds = paymentHolds + unpaidHolds;
  const total = (key: keyof CheckoutFunnel['byMethod'][number] & string) => byMethod.reduce((sum, m) => sum + (m[key] as number), 0);
  const paid = total('paid');
  return {
    holds,
    started: total('started'),
    paid,
    failed: total('failed'),
    cancelled: total('cancelled'),
    expired: total('expired'),
    open: total('open'),
    holdToPaidPercent: percent(paid, holds, 1),
    byMethod,
  };
}

/**
 * Bookings cancelled (by the parent, or by staff) and moved in the period, per school of the booking. Arrived and
 * no-show are not recorded yet, so they are not counted.
 */
export async function attendance(db: DbOrTx, p: Period): Promise<Attendance> {
  const rows = await rowsOf<{ school: string; cancelledByParent: number; cancelledByStaff: number; moved: number }>(
    db,
    sql`SELECT p.selected_school AS school,
               count(*) FILTER (WHERE e.kind IN ('cancelled', 'child_cancelled') AND e.actor = 'parent')::int AS "cancelledByParent",
               count(*) FILTER (WHERE e.kind IN ('cancelled', 'child_cancelled') AND e.actor NOT IN ('parent', 'system'))::int AS "cancelledByStaff",
               count(*) FILTER (WHERE e.kind = 'rescheduled')::int AS moved
        FROM booking_events e JOIN payments p ON p.id = e.payment_id
        WHERE e.kind IN ('cancelled', 'child_cancelled', 'rescheduled') AND ${within(sql`e.created_at`, p)} AND ${schoolIs(sql`p.selected_school`, p)}
        GROUP BY 1`,
  );
  return {
    schools: schoolsOf(p).map((school) => rows.find((r) => r.school === school) ?? { school, cancelledByParent: 0, cancelledByStaff: 0, moved: 0 }),
  };
}

/**
 * Fees paid and refunded, per school, for the payments started in the period. A payment of several children counts
 * each child's share at the child's school and each child's own refund there; a refund of the whole payment counts at
 * the payment's (first child's) school.
 */
export async function money(db: DbOrTx, p: Period): Promise<Money> {
  const rows = await rowsOf<{ school: string; paidSen: number; refundedSen: number }>(
    db,
    // One pass over the period's paid payments (each child of several its own row) summed per pair of schools (the
    // line's, the payment's), a handful of groups, then each sum put at its school: the fee or child's share and a
    // child's own refund at the line's school, a whole refund (once per payment: on its first child) at the payment's.
    // (Two passes over the payments, one for the refunds, cost a season twice as much and went parallel.)
    sql`WITH pairs AS (
          SELECT COALESCE(c.selected_school, p.selected_school) AS line_school, p.selected_school AS payment_school,
                 sum(COALESCE(c.amount_sen, p.paid_amount_sen, p.amount_sen)) AS paid,
                 sum(CASE WHEN c.refund_state = 'refunded' THEN COALESCE(c.refund_sen, 0) ELSE 0 END) AS child_refunded,
                 sum(CASE WHEN p.status = 'refunded' AND (c.payment_id IS NULL OR c.first)
                          THEN COALESCE(p.refund_amount_sen, p.paid_amount_sen, p.amount_sen) ELSE 0 END) AS whole_refunded
          FROM payments p
          LEFT JOIN (SELECT payment_id, selected_school, amount_sen, refund_state, refund_sen,
                            position = min(position) OVER (PARTITION BY payment_id) AS first
                     FROM payment_children) AS c ON c.payment_id = p.id
          WHERE ${within(sql`p.created_at`, p)} AND ${PAID}
          GROUP BY 1, 2)
        SELECT school, sum(paid)::int AS "paidSen", sum(refunded)::int AS "refundedSen" FROM (
          SELECT line_school AS school, paid, child_refunded AS refunded FROM pairs
          UNION ALL
          SELECT payment_school, 0, whole_refunded FROM pairs
        ) AS lines
        WHERE ${schoolIs(sql`school`, p)} GROUP BY 1`,
  );
  return {
    schools: schoolsOf(p).map((school) => {
      const row = rows.find((r) => r.school === school);
      const paidSen = row?.paidSen ?? 0;
      const refundedSen = row?.refundedSen ?? 0;
      return { school, paidSen, refundedSen, netSen: paidSen - refundedSen };
    }),
  };
}
