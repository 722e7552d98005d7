jest.setTimeout(60_000);
import { sql } from 'drizzle-orm';
import { BookingMessage, ErrorCode } from 'shared-api/contract';
import { openDatabase } from '../../src/base/db/connection';
import { sha256 } from '../../src/base/crypto';
import { auth, createThrowawayPostgres, insertConsent, staffToken, startTestApp, stopTestApp, type TestContext } from '../helpers';

// A small hand-built term with known answers: the period is 2026-03-02 (Monday) to 2026-03-15 (Sunday) in GMT+8, two
// weeks; a few rows sit just outside it. Dates are fixed: every figure is asked about this past period.
const PRIMARY = 'Seri Ilmu Private Primary';
const SECONDARY = 'Seri Ilmu Private Secondary';
const INTERNATIONAL = 'Seri Ilmu International';
const PERIOD = 'from=2026-03-02&to=2026-03-15';

/** An instant given as its GMT+8 wall clock. */
const my = (wall: string) => new Date(`${wall}+08:00`);

type Slot = { at: string; seat?: number; school?: string; deleted?: boolean };

async function build(ctx: TestContext) {
  const db = ctx.database.db;
  const slotIds: Record<string, number> = {};
  const addSlot = async (name: string, { at, seat = 1, school, deleted }: Slot) => {
    const start = my(at);
    const consent = school ? await insertConsent(db) : null;
    const rows = (await db.execute(sql`
      INSERT INTO slots (start_at, end_at, seat, status, selected_school, visitor_name, consent_id, booked_at, deleted_at)
      VALUES (${start.toISOString()}, ${new Date(start.getTime() + 30 * 60_000).toISOString()}, ${seat}, ${school ? 'booked' : 'available'},
              ${school ?? null}, ${school ? 'Parent' : null}, ${consent}, ${school ? start.toISOString() : null}, ${deleted ? start.toISOString() : null})
      RETURNING id`)) as unknown as { rows: { id: number }[] };
    slotIds[name] = rows.rows[0].id;
  };
  await addSlot('before', { at: '2026-03-01T23:30:00', school: PRIMARY }); // Sunday: the week before
  await addSlot('s1', { at: '2026-03-02T09:00:00', school: PRIMARY });
  await addSlot('s2', { at: '2026-03-02T09:00:00', seat: 2, school: SECONDARY });
  await addSlot('s3', { at: '2026-03-02T09:30:00' });
  await addSlot('s4', { at: '2026-03-02T07:30:00', school: PRIMARY }); // Sunday 23:30 in UTC: GMT+8 decides
  await addSlot('s5', { at: '2026-03-03T09:00:00', school: PRIMARY, deleted: true });
  await addSlot('s6', { at: '2026-03-11T14:00:00', school: INTERNATIONAL });
  await addSlot('s7', { at: '2026-03-11T14:00:00', seat: 2 });
  await addSlot('s8', { at: '2026-03-12T14:00:00' });
  await addSlot('s9', { at: '2026-03-12T14:00:00', seat: 2 });
  await addSlot('s11', { at: '2026-03-13T10:00:00', school: INTERNATIONAL });
  await addSlot('s12', { at: '2026-03-13T10:00:00', seat: 2 });
  await addSlot('after', { at: '2026-03-16T09:00:00', school: PRIMARY });

  type Pay = {
    slot: string;
    school: string;
    status: string;
    amount: number;
    created: string;
    method?: string;
    completed?: string;
    failure?: string;
    refund?: number;
    cancelled?: { at: string; by: string };
  };
  const addPayment = async (id: string, p: Pay) => {
    const consent = await insertConsent(db);
    const paid = ['completed', 'refund_pending', 'refunded'].includes(p.status) ? p.amount : null;
    await db.execute(sql`
      INSERT INTO payments (id, reference, slot_id, status, amount_sen, method, visitor_name, visitor_email, visitor_contact_no, selected_school,
                            hold_token, gateway, session_expires_at, failure_reason, completed_at, paid_amount_sen, booking_status, cancelled_at,
                            cancelled_by, refund_amount_sen, consent_id, created_at)
      VALUES (${id}, ${`PAY-${id}`}, ${slotIds[p.slot]}, ${p.status}, ${p.amount}, ${p.method ?? null}, 'Parent', ${`${id}@example.com`}, '0123456789',
              ${p.school}, ${`hold-${id}`}, 'sandbox', ${my(p.created).toISOString()}, ${p.failure ?? null},
              ${p.completed ? my(p.completed).toISOString() : null}, ${paid}, ${p.cancelled ? 'cancelled' : paid ? 'booked' : null},
              ${p.cancelled ? my(p.cancelled.at).toISOString() : null}, ${p.cancelled?.by ?? null}, ${p.refund ?? null}, ${consent},
              ${my(p.created).toISOString()})`);
    if (p.cancelled)
      await db.execute(sql`INSERT INTO booking_events (payment_id, kind, actor, created_at) VALUES (${id}, 'cancelled', ${p.cancelled.by}, ${my(p.cancelled.at).toISOString()})`);
  };
  await addPayment('pa', { slot: 's1', school: PRIMARY, status: 'completed', amount: 5000, method: 'fpx', created: '2026-03-02T10:00:00', completed: '2026-03-02T10:05:00' });
  await addPayment('pb', {
    slot: 's2', school: SECONDARY, status: 'refunded', amount: 7500, method: 'card', created: '2026-03-02T11:00:00', completed: '2026-03-02T11:05:00',
    refund: 3750, cancelled: { at: '2026-03-03T10:00:00', by: 'parent' },
  });
  // s2 freed at 10:00 and paid for again at 11:30: 90 minutes.
  await addPayment('pc', { slot: 's2', school: SECONDARY, status: 'completed', amount: 7500, method: 'card', created: '2026-03-03T11:00:00', completed: '2026-03-03T11:30:00' });
  await addPayment('pd', { slot: 's4', school: PRIMARY, status: 'completed', amount: 5000, method: 'fpx', created: '2026-03-02T12:00:00', completed: '2026-03-02T12:05:00' });
  await addPayment('pe', { slot: 's3', school: PRIMARY, status: 'failed', amount: 5000, method: 'card', created: '2026-03-04T09:00:00', failure: BookingMessage.paymentFailed });
  await addPayment('pf', { slot: 's3', school: PRIMARY, status: 'failed', amount: 5000, created: '2026-03-04T10:00:00', failure: BookingMessage.sessionExpired });
  await addPayment('pg', { slot: 's7', school: INTERNATIONAL, status: 'cancelled', amount: 10000, created: '2026-03-10T09:00:00', failure: 'Payment cancelled' });
  await addPayment('ph', {
    slot: 's6', school: INTERNATIONAL, status: 'refunded', amount: 10000, method: 'card', created: '2026-03-09T09:00:00', completed: '2026-03-09T09:10:00',
    refund: 10000, cancelled: { at: '2026-03-10T09:00:00', by: 'staff@example.com' },
  });
  // s6 freed on the 10th at 09:00, paid for again on the 12th at 11:00: 50 hours, 3000 minutes.
  await addPayment('pi', { slot: 's6', school: INTERNATIONAL, status: 'completed', amount: 10000, method: 'fpx', created: '2026-03-12T09:00:00', completed: '2026-03-12T11:00:00' });
  await addPayment('pj', { slot: 's8', school: PRIMARY, status: 'pending', amount: 5000, created: '2026-03-12T13:00:00' });
  await addPayment('pk', {
    slot: 'after', school: PRIMARY, status: 'completed', amount: 5000, method: 'fpx', created: '2026-03-16T09:00:00', completed: '2026-03-16T09:05:00',
    cancelled: { at: '2026-03-17T09:00:00', by: 'parent' },
  });
  // Two children in one checkout: International (9000 after the discount) and Primary (4500), the second cancelled and refunded.
  await addPayment('pm', { slot: 's11', school: INTERNATIONAL, status: 'completed', amount: 13500, method: 'card', created: '2026-03-11T09:00:00', completed: '2026-03-11T09:05:00' });
  await db.execute(sql`
    INSERT INTO payment_children (payment_id, position, slot_id, child_name, child_year, selected_school, fee_sen, discount_sen, amount_sen,
                                  cancelled_at, cancelled_by, refund_sen, refund_state)
    VALUES ('pm', 1, ${slotIds.s11}, 'Aisyah', 'Year 7', ${INTERNATIONAL}, 10000, 1000, 9000, NULL, NULL, NULL, NULL),
           ('pm', 2, ${slotIds.s12}, 'Adam', 'Year 2', ${PRIMARY}, 5000, 500, 4500, ${my('2026-03-12T09:00:00').toISOString()}, 'parent', 4500, 'refunded')`);
  await db.execute(sql`
    INSERT INTO booking_events (payment_id, kind, actor, child_name, created_at) VALUES
      ('pm', 'child_cancelled', 'parent', 'Adam', ${my('2026-03-12T09:00:00').toISOString()}),
      ('pd', 'rescheduled', 'parent', NULL, ${my('2026-03-05T09:00:00').toISOString()}),
      ('pa', 'booked', 'parent', NULL, ${my('2026-03-02T10:05:00').toISOString()})`);

  // Holds: one that became payment pa (counted once), two never paid for, one after the period.
  const grant = (slot: string, tokenHash: string, at: string) =>
    db.execute(sql`INSERT INTO hold_grants (slot_id, token_hash, client, started_at, ends_at)
                   VALUES (${slotIds[slot]}, ${tokenHash}, 'net', ${my(at).toISOString()}, ${new Date(my(at).getTime() + 15 * 60_000).toISOString()})`);
  await grant('s1', sha256('hold-pa'), '2026-03-02T09:55:00');
  await grant('s3', sha256('never-paid-1'), '2026-03-05T09:00:00');
  await grant('s9', sha256('never-paid-2'), '2026-03-13T09:00:00');
  await grant('s9', sha256('never-paid-3'), '2026-03-16T09:00:00');

  // The waitlist: three entries in the period (one never confirmed, not counted), one after; their offers.
  const entryIds: Record<string, number> = {};
  const addEntry = async (name: string, school: string, state: string, joined: string) => {
    const consent = await insertConsent(db);
    const rows = (await db.execute(sql`
      INSERT INTO waitlist_entries (school, name, email, phone, locale, from_date, to_date, part_of_day, token_hash, consent_id, state, joined_at)
      VALUES (${school}, 'Parent', ${`${name}@example.com`}, ${`01234${Object.keys(entryIds).length}`}, 'en', '2026-03-01', '2026-03-31', 'any',
              ${sha256(name)}, ${consent}, ${state}, ${my(joined).toISOString()})
      RETURNING id`)) as unknown as { rows: { id: number }[] };
    entryIds[name] = rows.rows[0].id;
  };
  await addEntry('wa', PRIMARY, 'waiting', '2026-03-03T09:00:00');
  await addEntry('wb', PRIMARY, 'booked', '2026-03-10T09:00:00');
  await addEntry('wc', SECONDARY, 'expired', '2026-03-10T10:00:00');
  await addEntry('wd', PRIMARY, 'pending', '2026-03-04T09:00:00');
  await addEntry('we', SECONDARY, 'waiting', '2026-03-20T09:00:00');
  const addOffer = async (entry: string, slot: string, outcome: string | null, created: string) => {
    const at = my(created);
    await db.execute(sql`
      INSERT INTO waitlist_offers (entry_id, slot_id, token_hash, hold_token, created_at, starts_at, expires_at, outcome)
      VALUES (${entryIds[entry]}, ${slotIds[slot]}, ${sha256(`${entry}-${created}`)}, 'token', ${at.toISOString()}, ${at.toISOString()},
              ${new Date(at.getTime() + 3_600_000).toISOString()}, ${outcome})`);
  };
  await addOffer('wb', 's6', 'booked', '2026-03-10T11:00:00');
  await addOffer('wc', 's7', 'expired', '2026-03-10T12:00:00');
  await addOffer('wc', 's9', 'declined', '2026-03-11T12:00:00');
  await addOffer('wa', 's8', null, '2026-03-12T12:00:00');
  await addOffer('we', 's9', 'declined', '2026-03-20T12:00:00');

  // April (a period of its own, after every figure above): two children in one payment refunded as a whole after the
  // second child's own refund; a failed payment on the same hold token; two seats booked at 10:00:00 and 10:00:30.
  await addSlot('a1', { at: '2026-04-07T10:00:00', school: INTERNATIONAL });
  await addSlot('a2', { at: '2026-04-07T10:00:30', seat: 2, school: PRIMARY });
  await addPayment('pn', {
    slot: 'a1', school: INTERNATIONAL, status: 'refunded', amount: 13500, method: 'card', created: '2026-04-06T09:00:00', completed: '2026-04-06T09:05:00',
    refund: 9000,
  });
  await addPayment('po', { slot: 'a1', school: INTERNATIONAL, status: 'failed', amount: 13500, method: 'card', created: '2026-04-06T08:50:00', failure: BookingMessage.paymentFailed });
  await db.execute(sql`UPDATE payments SET hold_token = 'hold-pn' WHERE id = 'po'`);
  await db.execute(sql`
    INSERT INTO payment_children (payment_id, position, slot_id, child_name, child_year, selected_school, fee_sen, discount_sen, amount_sen,
                                  cancelled_at, cancelled_by, refund_sen, refund_state)
    VALUES ('pn', 1, ${slotIds.a1}, 'Mei', 'Year 7', ${INTERNATIONAL}, 10000, 1000, 9000, NULL, NULL, NULL, NULL),
           ('pn', 2, ${slotIds.a2}, 'Ling', 'Year 2', ${PRIMARY}, 5000, 500, 4500, ${my('2026-04-06T12:00:00').toISOString()}, 'parent', 4500, 'refunded')`);
  await grant('a1', sha256('hold-pn'), '2026-04-06T08:45:00');
  await grant('a1', sha256('never-paid-4'), '2026-04-06T10:00:00');
  await grant('a1', sha256('never-paid-4'), '2026-04-06T10:10:00');
}

describe.each(['pglite', 'postgres'] as const)('Insights figures on a hand-built term (%s)', (driver) => {
  let ctx: TestContext;
  let token: string;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (driver === 'postgres') {
      const pgdb = await createThrowawayPostgres('insights_test');
      drop = pgdb.drop;
      ctx = await startTestApp({}, await openDatabase({ driver: 'postgres', url: pgdb.url, poolSize: 2 }));
    } else {
      ctx = await startTestApp();
    }
    token = await staffToken(ctx);
    await build(ctx);
  });
  afterAll(async () => {
    await stopTestApp(ctx);
    await drop?.();
  });

  const get = async (chart: string, query = PERIOD) => {
    const res = await ctx.app.inject({ url: `/staff/insights/${chart}?${query}`, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const school = (name: string) => `${PERIOD}&school=${encodeURIComponent(name)}`;

  it('fill rate: seats booked of seats offered per GMT+8 week, deleted seats left out', async () => {
    expect(await get('fill-rate')).toEqual({
      weeks: [
        {
          weekStart: '2026-03-02', seatsOffered: 4, seatsBooked: 3, fillRatePercent: 75,
          bySchool: [{ school: PRIMARY, seatsBooked: 2 }, { school: SECONDARY, seatsBooked: 1 }, { school: INTERNATIONAL, seatsBooked: 0 }],
        },
        {
          weekStart: '2026-03-09', seatsOffered: 6, seatsBooked: 2, fillRatePercent: 33,
          bySchool: [{ school: PRIMARY, seatsBooked: 0 }, { school: SECONDARY, seatsBooked: 0 }, { school: INTERNATIONAL, seatsBooked: 2 }],
        },
      ],
    });
    expect((await get('fill-rate', school(PRIMARY))).weeks.map((w: { seatsBooked: number; fillRatePercent: number }) => [w.seatsBooked, w.fillRatePercent])).toEqual([
      [2, 50],
      [0, 0],
    ]);
  });

  it('fill rate: a week without seats has no rate, weeks ahead included', async () => {
    const { weeks } = await get('fill-rate', 'from=2026-03-16&to=2026-03-29');
    expect(weeks).toEqual([
      expect.objectContaining({ weekStart: '2026-03-16', seatsOffered: 1, seatsBooked: 1, fillRatePercent: 100 }),
      expect.objectContaining({ weekStart: '2026-03-23', seatsOffered: 0, seatsBooked: 0, fillRatePercent: null }),
    ]);
  });

  it('popular times: seats booked per weekday and GMT+8 start time', async () => {
    expect(await get('popular-times')).toEqual({
      cells: [
        { weekday: 1, time: '07:30', seatsBooked: 1 },
        { weekday: 1, time: '09:00', seatsBooked: 2 },
        { weekday: 3, time: '14:00', seatsBooked: 1 },
        { weekday: 5, time: '10:00', seatsBooked: 1 },
      ],
    });
    expect((await get('popular-times', school(PRIMARY))).cells).toEqual([
      { weekday: 1, time: '07:30', seatsBooked: 1 },
      { weekday: 1, time: '09:00', seatsBooked: 1 },
    ]);
  });

  it('waitlist: entries per week, offers by outcome, median minutes to rebook a freed seat', async () => {
    expect(await get('waitlist')).toEqual({
      weeks: [
        { weekStart: '2026-03-02', entries: 1 },
        { weekStart: '2026-03-09', entries: 2 },
      ],
      offers: { made: 4, accepted: 1, passed: 1, expired: 1, cancelled: 0, open: 1 },
      // Freed: s2 (rebooked after 90 min), s6 (after 3000 min), pm's second child's seat (not rebooked).
      rebooking: { freed: 3, rebooked: 2, medianMinutes: 1545 },
    });
    expect(await get('waitlist', school(SECONDARY))).toEqual({
      weeks: [
        { weekStart: '2026-03-02', entries: 0 },
        { weekStart: '2026-03-09', entries: 1 },
      ],
      offers: { made: 2, accepted: 0, passed: 1, expired: 1, cancelled: 0, open: 0 },
      rebooking: { freed: 1, rebooked: 1, medianMinutes: 90 },
    });
    expect((await get('waitlist', school(PRIMARY))).rebooking).toEqual({ freed: 1, rebooked: 0, medianMinutes: null });
  });

  it('checkout funnel: holds, payments by outcome, hold-to-paid conversion, per method', async () => {
    expect(await get('checkout')).toEqual({
      holds: 13,
      started: 11,
      paid: 7,
      failed: 1,
      cancelled: 1,
      expired: 1,
      open: 1,
      holdToPaidPercent: 53.8,
      byMethod: [
        { method: 'card', started: 5, paid: 4, failed: 1, cancelled: 0, expired: 0, open: 0 },
        { method: 'fpx', started: 3, paid: 3, failed: 0, cancelled: 0, expired: 0, open: 0 },
        { method: 'unknown', started: 3, paid: 0, failed: 0, cancelled: 1, expired: 1, open: 1 },
      ],
    });
    expect(await get('checkout', school(PRIMARY))).toMatchObject({ holds: 5, started: 5, paid: 2, failed: 1, expired: 1, open: 1, holdToPaidPercent: 40 });
  });

  it('attendance: cancelled by the parent or staff, and moved, per school', async () => {
    expect(await get('attendance')).toEqual({
      schools: [
        { school: PRIMARY, cancelledByParent: 0, cancelledByStaff: 0, moved: 1 },
        { school: SECONDARY, cancelledByParent: 1, cancelledByStaff: 0, moved: 0 },
        { school: INTERNATIONAL, cancelledByParent: 1, cancelledByStaff: 1, moved: 0 },
      ],
    });
  });

  it('money: fees paid, refunded and net per school in sen, a child of several at their own school', async () => {
    expect(await get('money')).toEqual({
      schools: [
        { school: PRIMARY, paidSen: 14500, refundedSen: 4500, netSen: 10000 },
        { school: SECONDARY, paidSen: 15000, refundedSen: 3750, netSen: 11250 },
        { school: INTERNATIONAL, paidSen: 29000, refundedSen: 10000, netSen: 19000 },
      ],
    });
    expect(await get('money', school(SECONDARY))).toEqual({ schools: [{ school: SECONDARY, paidSen: 15000, refundedSen: 3750, netSen: 11250 }] });
  });

  it('April: a whole refund counted once with its children, a hold token of two payments counted once, times by the minute', async () => {
    const april = 'from=2026-04-06&to=2026-04-12';
    expect(await get('money', april)).toEqual({
      schools: [
        { school: PRIMARY, paidSen: 4500, refundedSen: 4500, netSen: 0 },
        { school: SECONDARY, paidSen: 0, refundedSen: 0, netSen: 0 },
        { school: INTERNATIONAL, paidSen: 9000, refundedSen: 9000, netSen: 0 },
      ],
    });
    expect(await get('money', `${april}&school=${encodeURIComponent(PRIMARY)}`)).toEqual({ schools: [{ school: PRIMARY, paidSen: 4500, refundedSen: 4500, netSen: 0 }] });
    expect(await get('checkout', april)).toEqual({
      holds: 2,
      started: 2,
      paid: 1,
      failed: 1,
      cancelled: 0,
      expired: 0,
      open: 0,
      holdToPaidPercent: 50,
      byMethod: [{ method: 'card', started: 2, paid: 1, failed: 1, cancelled: 0, expired: 0, open: 0 }],
    });
    expect(await get('checkout', `${april}&school=${encodeURIComponent(INTERNATIONAL)}`)).toMatchObject({ holds: 1, started: 2, paid: 1, holdToPaidPercent: 100 });
    expect(await get('popular-times', april)).toEqual({ cells: [{ weekday: 2, time: '10:00', seatsBooked: 2 }] });
    expect((await get('fill-rate', april)).weeks).toEqual([
      {
        weekStart: '2026-04-06', seatsOffered: 2, seatsBooked: 2, fillRatePercent: 100,
        bySchool: [{ school: PRIMARY, seatsBooked: 1 }, { school: SECONDARY, seatsBooked: 0 }, { school: INTERNATIONAL, seatsBooked: 1 }],
      },
    ]);
  });

  it('needs a staff token', async () => {
    const res = await ctx.app.inject({ url: `/staff/insights/money?${PERIOD}` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, error: ErrorCode.UNAUTHORIZED });
  });

  it.each([
    ['', /from/i],
    ['from=2026-03-02', /to/i],
    ['from=2026-02-30&to=2026-03-15', /Not a calendar date/],
    ['from=2026-03-15&to=2026-03-02', /start date must not be after the end date/],
    ['from=2025-03-01&to=2026-03-15', /at most 366 days/],
    [`${PERIOD}&school=Another%20School`, /School must be one of/],
  ])('refuses %p with a 400 and a clear message', async (query, message) => {
    const res = await ctx.app.inject({ url: `/staff/insights/fill-rate?${query}`, headers: auth(token) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, data: null });
    expect(res.json().message).toMatch(message);
  });
});
