// The staff side's data at a school's size for `BENCH_STAFF=1 npm run bench:web` (issue 41): 10,000 future and 50,000
// past slots in the API's PostgreSQL database, seeded with set-based SQL, and the dashboard's paged requests
// (`GET /slot/list?view=&page=…`) measured on the wire per Accept-Encoding.
import http from 'node:http';
import { brand } from 'shared-api/contract';
import { pg } from './api/server';
import { median } from './doc';

export const FUTURE_SLOTS = 10_000;
export const PAST_SLOTS = 50_000;
const SLOTS = FUTURE_SLOTS + PAST_SLOTS;
/** Every TWO_SEATS-th slot (from the second) is seat 2 of the time before it, booked with it: a booking of two children. */
const TWO_SEATS = 300;

const FIRST_NAMES = ['Nur Aisyah', 'Wei Ling', 'Priya', 'Muhammad Hafiz', 'Mei Ying', 'Arjun', 'Siti Hajar', 'Jia Hui', 'Kavitha', 'Ahmad Faris', 'Hui Min', 'Ravi', 'Farah', 'Zhi Hao', 'Deepa', 'Amir', 'Li Na'];
const SURNAMES = ['Tan', 'Abdullah', 'Lim', 'Raj', 'Wong', 'Ismail', 'Lee', 'Nair', 'Chong', 'Hassan', 'Ng', 'Kumar', 'Teh'];
const CHILD_NAMES = ['Adam', 'Aisyah', 'Ethan', 'Sofea', 'Jun Kai', 'Ananya', 'Irfan', 'Xin Yi', 'Hana', 'Darren', 'Aryan'];

const text = (value: string) => `'${value.replace(/'/g, "''")}'`;
const pick = (list: string[], n: string) => `(ARRAY[${list.map(text).join(',')}])[(${n}) % ${list.length} + 1]`;

/**
 * The seed, set-based. Slot i (0…59,999) starts i hours after the hour 49,999 hours before this one (so 50,000 are past
 * and 10,000 ahead), 30 minutes long, seat 1; every third is booked (one consent each, as a booking must name one).
 * Slot i with i % 300 = 1 is instead seat 2 of slot i-1's time, booked under slot i-1's reference: a booking of two
 * children, as a checkout for two stores it. Triggers are off for this session only (the slot-change counter is moved
 * once at the end, so the public list's cache does not keep an answer from before the seed).
 */
export function staffSeedSql(): string[] {
  const schools = brand.schools.map((school) => school.name);
  const hour = `date_trunc('hour', now()) - interval '${PAST_SLOTS - 1} hours'`;
  const pair = `(i % ${TWO_SEATS} = 1)`;
  const owner = `(CASE WHEN ${pair} THEN i - 1 ELSE i END)`; // the booking's first slot
  const booked = `(i % 3 = 0 OR ${pair})`;
  const when = (value: string) => `CASE WHEN ${booked} THEN ${value} END`;
  const surname = pick(SURNAMES, `${owner} / 7`);
  return [
    `SET session_replication_role = replica`,
    `INSERT INTO consents (id, notice_version, language, channel, given_at)
       SELECT g, 'v1', 'en', 'web', now() FROM generate_series(1, ${SLOTS}) g`,
    `SELECT setval('consents_id_seq', ${SLOTS})`,
    `INSERT INTO slots (id, start_at, end_at, seat, status, visitor_name, visitor_email, visitor_contact_no, selected_school,
                        child_name, child_year, booking_reference, amount_sen, booked_at, consent_id)
       SELECT i + 1, s, s + interval '30 minutes', CASE WHEN ${pair} THEN 2 ELSE 1 END,
              CASE WHEN ${booked} THEN 'booked' ELSE 'available' END,
              ${when(`${pick(FIRST_NAMES, `${owner} / 3`)} || ' ' || ${surname}`)},
              ${when(`'parent' || ${owner} || '@example.com'`)},
              ${when(`'01' || lpad(((${owner} * 7919) % 100000000)::text, 8, '0')`)},
              ${when(pick(schools, `${owner} / 3`))},
              ${when(`${pick(CHILD_NAMES, 'i')} || ' ' || ${surname}`)},
              ${when(`'Year ' || (i % 6 + 1)`)},
              ${when(`'SB' || lpad(${owner}::text, 8, '0')`)},
              ${when('5000')}, ${when(`s - interval '10 days'`)}, ${when('i + 1')}
       FROM generate_series(0, ${SLOTS - 1}) i,
            LATERAL (SELECT ${hour} + (${owner}) * interval '1 hour' AS s) t`,
    `SELECT setval('slots_id_seq', ${SLOTS})`,
    `SET session_replication_role = DEFAULT`,
    `SELECT nextval('slot_changes_seq')`,
    `ANALYZE`,
  ];
}

export type StaffSeed = { seconds: number; future: number; past: number; booked: number; bookings: number; twoSeats: number; visitor: string; school: string };

/** Seeds `databaseUrl` (migrated, no slots yet) and answers what it holds, with a visitor's name and a school to ask for. */
export async function seedStaffData(databaseUrl: string): Promise<StaffSeed> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    for (const statement of staffSeedSql()) await client.query(statement);
    const seconds = (performance.now() - started) / 1000;
    const counts = (
      await client.query(`SELECT count(*) FILTER (WHERE start_at > now())::int AS future, count(*) FILTER (WHERE start_at <= now())::int AS past,
        count(*) FILTER (WHERE status = 'booked')::int AS booked, count(DISTINCT booking_reference)::int AS bookings,
        count(*) FILTER (WHERE seat = 2)::int AS "twoSeats" FROM slots WHERE deleted_at IS NULL`)
    ).rows[0] as Omit<StaffSeed, 'seconds' | 'visitor' | 'school'>;
    // A parent's name as staff would type it: the visitor of the booking nearest the middle of the history.
    const visitor = (await client.query(`SELECT visitor_name FROM slots WHERE status = 'booked' ORDER BY id OFFSET ${Math.floor(counts.booked / 2)} LIMIT 1`)).rows[0]
      .visitor_name as string;
    return { seconds, ...counts, visitor, school: brand.schools[1].name };
  } finally {
    await client.end();
  }
}

/** The dashboard's pages as it asks for them (admin-remote useDashboardPage's arguments). */
export function staffPageRequests(seed: Pick<StaffSeed, 'visitor' | 'school'>): { name: string; query: string }[] {
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  return [
    { name: "Available, the dashboard's first list", query: q({ view: 'upcoming', isBooked: 'false', page: '1' }) },
    { name: 'Past', query: q({ view: 'past', page: '1' }) },
    { name: 'Booked', query: q({ view: 'booked', page: '1' }) },
    { name: 'Booked, page 300', query: q({ view: 'booked', page: '300' }) },
    { name: 'Booked by visitor', query: q({ view: 'booked', page: '1', sort: 'visitor' }) },
    { name: "Booked, a visitor's name searched", query: q({ view: 'booked', page: '1', q: seed.visitor }) },
    { name: 'Booked, one school', query: q({ view: 'booked', page: '1', school: seed.school }) },
  ];
}

export const ENCODINGS = ['br', 'gzip', 'identity'] as const;
/** `rows`: the page's slots; `count`: the table's rows matching (a booking of two children is one). */
export type OnWire = { name: string; query: string; bytes: Record<(typeof ENCODINGS)[number], number>; ms: number; rows: number; count: number };

function get(url: string, token: string, encoding: string): Promise<{ bytes: number; status: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ bytes, status: res.statusCode ?? 0 }));
      })
      .on('error', reject);
  });
}

/**
 * Each request's body as sent per Accept-Encoding (bytes on the wire, without headers) and its median time over every
 * call (`runs` per encoding, one at a time, over loopback), after one uncounted call that plans its statements.
 */
export async function staffPagesOnWire(apiUrl: string, token: string, requests: { name: string; query: string }[], runs: number): Promise<OnWire[]> {
  const results: OnWire[] = [];
  for (const request of requests) {
    const url = `${apiUrl}/slot/list?${request.query}`;
    const answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!answer.ok) throw new Error(`GET /slot/list?${request.query}: ${answer.status} ${(await answer.text()).slice(0, 300)}`);
    const { data } = (await answer.json()) as { data: { timeSlots: { rows: unknown[] }; pagination: { total: number } } };
    const bytes = { br: 0, gzip: 0, identity: 0 };
    const times: number[] = [];
    for (const encoding of ENCODINGS) {
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        const { bytes: n, status } = await get(url, token, encoding);
        times.push(performance.now() - started);
        if (status !== 200) throw new Error(`GET /slot/list?${request.query} (${encoding}): ${status}`);
        bytes[encoding] = n;
      }
    }
    results.push({ ...request, bytes, ms: Math.round(median(times)), rows: data.timeSlots.rows.length, count: data.pagination.total });
  }
  return results;
}
