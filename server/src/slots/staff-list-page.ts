// The staff dashboard's pages of GET /slot/list (issue 41): one page of a view, searched, sorted and filtered in SQL, so
// the dashboard never loads the school's whole history.
import { and, asc, desc, eq, gt, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { brand, STAFF_OTHER_SCHOOL, TIMEZONE, type StaffListSort, type StaffListStats, type StaffListView } from 'shared-api/contract';
import { likePattern } from '../audit';
import type { DbOrTx } from '../base/db/connection';
import { slots } from './tables';
import type { StaffSlotRow } from './present';

export type StaffPageQuery = {
  view: StaffListView;
  page: number;
  limit: number;
  q?: string;
  isBooked?: boolean;
  sort?: StaffListSort;
  direction?: 'ascending' | 'descending';
  /** The booked view only: a brand school's name, or STAFF_OTHER_SCHOOL. */
  school?: string;
};

export type StaffPage = {
  rows: StaffSlotRow[];
  /** Rows of the table matching (the booked view's booking of several children is one). */
  total: number;
  /** Slots (seats) matching. */
  slotCount: number;
  /** The booked view: booked seats per school over its matches, before the school filter; null is none of the brand's. */
  schools?: Array<{ school: string | null; count: number }>;
};

/** q found in the visitor's name, email, phone (its digits too, as the dashboard's search did), the reference, the child or the school. */
function searchOf(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const pattern = likePattern(q);
  const phoneDigits = /^[\d\s()+.-]+$/.test(q) ? q.replace(/\D/g, '') : '';
  return or(
    ilike(slots.visitorName, pattern),
    ilike(slots.visitorEmail, pattern),
    ilike(slots.visitorContactNo, pattern),
    ilike(slots.bookingReference, pattern),
    ilike(slots.childName, pattern),
    ilike(slots.selectedSchool, pattern),
    phoneDigits.length >= 3 ? sql`regexp_replace(${slots.visitorContactNo}, '[^0-9]', '', 'g') LIKE ${likePattern(phoneDigits)}` : undefined,
  );
}

const viewFilter = (view: StaffListView): SQL =>
  view === 'upcoming' ? gt(slots.startAt, sql`now()`) : view === 'past' ? lte(slots.startAt, sql`now()`) : eq(slots.status, 'booked');

/** A brand school's name, or null for none of them (the dashboard's "Other" bucket). */
const schoolBucket = sql`CASE WHEN ${slots.selectedSchool} IN (${sql.join(
  brand.schools.map((school) => sql`${school.name}`),
  sql`, `,
)}) THEN ${slots.selectedSchool} END`;

const ascending = (query: StaffPageQuery) => (query.direction ?? (query.view === 'past' ? 'descending' : 'ascending')) === 'ascending';

/** Each row's sort text per column (lower case; the phone by its digits); Date & Time sorts by the start alone. */
const rowSortKey: Record<Exclude<StaffListSort, 'dateTime'>, SQL> = {
  visitor: sql`lower(coalesce(${slots.visitorName}, ''))`,
  child: sql`lower(coalesce(${slots.childName}, ''))`,
  school: sql`lower(coalesce(${slots.selectedSchool}, ''))`,
  phone: sql`regexp_replace(coalesce(${slots.visitorContactNo}, ''), '[^0-9]', '', 'g')`,
};

/**
 * One page of a staff view: upcoming (start still ahead, soonest first), past (started, newest first) or booked (past
 * ones too, by start). In the booked view a booking of several children (one reference at one time) is one row: its
 * seats come together on one page, it matches when any seat does, and it sorts by its first child's, school's or seat's text.
 */
export async function listStaffSlotPage(db: DbOrTx, query: StaffPageQuery): Promise<StaffPage> {
  const page = query.view === 'booked' ? await bookedPage(db, query) : await slotPage(db, query);
  return { ...page, rows: await withSeats(db, page.rows) };
}

/** Upcoming and past: a row a slot. */
async function slotPage(db: DbOrTx, query: StaffPageQuery): Promise<StaffPage> {
  const bookedFilter = query.isBooked === undefined ? undefined : eq(slots.status, query.isBooked ? 'booked' : 'available');
  const where = and(isNull(slots.deletedAt), viewFilter(query.view), bookedFilter, searchOf(query.q));
  const up = ascending(query);
  const byStart = [up ? asc(slots.startAt) : desc(slots.startAt), asc(slots.seat), asc(slots.id)];
  const order = query.sort && query.sort !== 'dateTime' ? [up ? asc(rowSortKey[query.sort]) : desc(rowSortKey[query.sort]), ...byStart] : byStart;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(slots).where(where).orderBy(...order).limit(query.limit).offset((query.page - 1) * query.limit),
    db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(slots).where(where),
  ]);
  return { rows, total, slotCount: total };
}

/** The booked view: rows are bookings (one reference at one time), the school filter and per-school counts apply. */
async function bookedPage(db: DbOrTx, query: StaffPageQuery): Promise<StaffPage> {
  const search = searchOf(query.q);
  const sortColumn = query.sort && query.sort !== 'dateTime' ? rowSortKey[query.sort] : undefined;
  // One row a seat, with what its booking's row needs: only the chosen sort's text is computed.
  const seats = sql`SELECT ${slots.id} AS id, ${slots.seat} AS seat, ${slots.startAt} AS start_at, ${slots.bookingReference} AS reference,
      ${search ?? sql`true`} AS hit, ${schoolBucket} AS bucket, ${sortColumn ?? sql`NULL::text`} AS sort_text
    FROM ${slots} WHERE ${and(isNull(slots.deletedAt), eq(slots.status, 'booked'))}`;
  // A booking is one reference at one time; a slot without a reference (the demo data) is a booking of its own. Its
  // sort text is its first seat's (the row shows the parent once and the children in seat order).
  const key = sortColumn ? sql`(array_agg(sort_text ORDER BY seat, id))[1]` : sql`min(start_at)`;
  const inSchool =
    query.school === undefined ? sql`true` : query.school === STAFF_OTHER_SCHOOL ? sql`bool_or(bucket IS NULL)` : sql`bool_or(bucket = ${query.school})`;
  const units = sql`SELECT min(start_at) AS start_at, min(id) AS first_id, count(*) AS seats, array_agg(id ORDER BY seat, id) AS ids,
      array_agg(bucket) AS buckets, ${key} AS key, ${inSchool} AS in_school
    FROM seat GROUP BY reference, start_at, CASE WHEN reference IS NULL THEN id END HAVING bool_or(hit)`;
  // The per-school counts, over every booking found (before the school filter), from the same grouping.
  const schoolCounts = sql`(SELECT json_agg(json_build_object('school', school, 'count', n)) FROM
      (SELECT b AS school, count(*) AS n FROM unit, unnest(unit.buckets) AS b GROUP BY b) AS counted)`;
  const dir = sql.raw(ascending(query) ? 'ASC' : 'DESC');
  const pageRows = await rowsOf<{ ids: number[]; rows: number; slots: number; schools: SchoolCount[] | null }>(
    db,
    sql`WITH seat AS (${seats}), unit AS MATERIALIZED (${units})
      SELECT ids, count(*) OVER () AS rows, sum(seats) OVER () AS slots, ${schoolCounts} AS schools FROM unit WHERE in_school
      ORDER BY key ${dir}, start_at ${dir}, first_id ${dir} LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`,
  );
  // A page past the last (or nothing found): the totals and counts asked again without the page.
  const [totals] = pageRows.length
    ? pageRows
    : await rowsOf<{ rows: number; slots: number | null; schools: SchoolCount[] | null }>(
        db,
        sql`WITH seat AS (${seats}), unit AS MATERIALIZED (${units})
          SELECT (SELECT count(*) FROM unit WHERE in_school) AS rows, (SELECT sum(seats) FROM unit WHERE in_school) AS slots, ${schoolCounts} AS schools`,
      );
  const counts = new Map((totals.schools ?? []).map((row) => [row.school, Number(row.count)]));
  const schools = [...brand.schools.map((school) => ({ school: school.name as string | null, count: counts.get(school.name) ?? 0 })), { school: null, count: counts.get(null) ?? 0 }];
  const ids = pageRows.flatMap((row) => row.ids.map(Number));
  const byId = new Map((ids.length ? await db.select().from(slots).where(inArray(slots.id, ids)) : []).map((row) => [row.id, row]));
  return { rows: ids.map((id) => byId.get(id)!).filter(Boolean), total: Number(totals.rows), slotCount: Number(totals.slots ?? 0), schools };
}

type SchoolCount = { school: string | null; count: number };

// Counts come back as text (bigint) on PostgreSQL and as numbers on PGlite: each is read through Number.
const rowsOf = async <Row>(db: DbOrTx, query: SQL): Promise<Row[]> => ((await db.execute(query)) as unknown as { rows: Row[] }).rows;

/** Each row with its time's live and booked seats when the time seats more than one child (counted for the page's times only). */
async function withSeats(db: DbOrTx, page: StaffSlotRow[]): Promise<StaffSlotRow[]> {
  if (page.length === 0) return page;
  const starts = [...new Set(page.map((row) => row.startAt.toISOString()))].map((iso) => new Date(iso));
  const times = await db
    .select({ startAt: slots.startAt, seats: sql<number>`count(*)`.mapWith(Number), taken: sql<number>`count(*) FILTER (WHERE ${slots.status} = 'booked')`.mapWith(Number) })
    .from(slots)
    .where(and(isNull(slots.deletedAt), inArray(slots.startAt, starts)))
    .groupBy(slots.startAt);
  const byStart = new Map(times.map((time) => [time.startAt.valueOf(), time]));
  return page.map((row) => {
    const time = byStart.get(row.startAt.valueOf());
    return time && time.seats > 1 ? { ...row, seats: time.seats, seatsTaken: time.taken } : row;
  });
}

/** The dashboard's stat cards in one pass over the live slots: ahead, booked (past too), ahead and free, ahead today in GMT+8. */
export async function staffListStats(db: DbOrTx): Promise<StaffListStats> {
  const dayEnd = sql`((now() AT TIME ZONE ${TIMEZONE})::date + 1)::timestamp AT TIME ZONE ${TIMEZONE}`;
  const [stats] = await db
    .select({
      total: sql<number>`count(*) FILTER (WHERE ${slots.startAt} > now())`.mapWith(Number),
      booked: sql<number>`count(*) FILTER (WHERE ${slots.status} = 'booked')`.mapWith(Number),
      available: sql<number>`count(*) FILTER (WHERE ${slots.startAt} > now() AND ${slots.status} <> 'booked')`.mapWith(Number),
      today: sql<number>`count(*) FILTER (WHERE ${slots.startAt} > now() AND ${slots.startAt} < ${dayEnd})`.mapWith(Number),
    })
    .from(slots)
    .where(isNull(slots.deletedAt));
  return stats;
}
