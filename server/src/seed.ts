import { randomUUID } from 'node:crypto';
import { count, sql } from 'drizzle-orm';
import { brand, schoolYears, SLOT_MINUTES, todayInMY, dayInMY } from 'shared-api/contract';
import type { Config } from './config';
import type { DbOrTx } from './base/db/connection';
import { currentNoticeVersion } from 'shared-api/privacy';
import { consents } from './bookings';
import { slots } from './slots';
import { countUsers, createUser } from './auth';
import { newBookingReference } from './checkout';

/** On an empty users table, creates the configured staff account; returns a line to print, or null. */
export async function ensureAdminAccount(db: DbOrTx, config: Config): Promise<string | null> {
  if ((await countUsers(db)) > 0) return null;
  const user = await createUser(db, { email: config.adminEmail, username: 'admin', password: config.adminPassword });
  if (!user) return null;
  return config.adminIsDemo
    ? `Demo staff login: ${config.adminEmail} / ${config.adminPassword}  (set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own)`
    : `Staff account created: ${config.adminEmail} (password from ADMIN_PASSWORD)`;
}

export const DEMO_TIMES = ['08:30', '09:00', '10:00', '11:30', '14:00', '15:30'];
const DEMO_VISITORS = [
  { visitorName: 'Aisyah binti Rahman', visitorEmail: 'aisyah.demo@example.com', visitorContactNo: '0123456789', childName: 'Nur Iman binti Hakim' },
  { visitorName: 'Tan Wei Ming', visitorEmail: 'weiming.demo@example.com', visitorContactNo: '0167654321', childName: 'Tan Jia Hui' },
  { visitorName: 'Priya Raj', visitorEmail: 'priya.demo@example.com', visitorContactNo: '0198887777', childName: 'Arjun Raj' },
  { visitorName: 'Daniel Lim', visitorEmail: 'daniel.demo@example.com', visitorContactNo: '0112223333', childName: 'Chloe Lim' },
];

/** When there are no slots at all: weekday demo slots for 3 weeks from this week's Monday (GMT+8), a few booked. */
export async function seedDemoSlots(db: DbOrTx, now = new Date()): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(slots);
  if (Number(n) > 0) return 0;
  const today = dayInMY(todayInMY(now));
  const monday = today.subtract((today.day() + 6) % 7, 'day');
  const values: (typeof slots.$inferInsert)[] = [];
  for (let d = 0; d < 21; d++) {
    const day = monday.add(d, 'day');
    if (day.day() === 0 || day.day() === 6) continue;
    for (const time of DEMO_TIMES) {
      const [h, m] = time.split(':').map(Number);
      const start = day.add(h * 60 + m, 'minute');
      values.push({ startAt: start.toDate(), endAt: start.add(SLOT_MINUTES, 'minute').toDate() });
    }
  }
  // Book a few upcoming slots (spread out) so the staff dashboard has something under Booked.
  const upcoming = values.filter((v) => v.startAt.getTime() > now.getTime() + 2 * 3_600_000);
  for (const [i, visitor] of DEMO_VISITORS.entries()) {
    const slot = upcoming[3 + i * 7];
    if (!slot) continue;
    // A booked slot names its consent (the database refuses one without): demo bookings stand for staff bookings.
    const [consent] = await db.insert(consents).values({ noticeVersion: currentNoticeVersion(), language: 'en', channel: 'staff', givenAt: now }).returning({ id: consents.id });
    const school = brand.schools[i % brand.schools.length];
    const years = schoolYears(school.name);
    Object.assign(slot, {
      ...visitor,
      status: 'booked',
      selectedSchool: school.name,
      childYear: years[i % years.length]?.name ?? null,
      amountSen: school.feeSen,
      bookingReference: newBookingReference(),
      bookedAt: now,
      consentId: consent.id,
    });
  }
  const rows = await db.insert(slots).values(values).onConflictDoNothing().returning({ id: slots.id });
  return rows.length;
}

/** A small deterministic sequence (Park–Miller): the season is the same on every run, yet looks lived in. */
function sequence(seed: number) {
  let state = seed;
  return () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
}

const METHODS = ['fpx', 'card', 'ewallet'];

/**
 * SEED_SEASON=1 (with the demo seed): a past term of eight weeks before this week, as the office would have lived it,
 * so the Insights page has something to show. Two seats a time; most booked and paid, some payments failed, expired or
 * cancelled on the gateway, some bookings cancelled (refunded) or moved, a waitlist with its offers. Written once:
 * nothing when a payment already exists. Every row is written as the product writes it (a consent per payment).
 */
export async function seedSeason(db: DbOrTx, now = new Date()): Promise<number> {
  const existing = (await db.execute(sql`SELECT count(*)::int AS n FROM payments`)) as unknown as { rows: { n: number }[] };
  if (existing.rows[0].n > 0) return 0;
  const random = sequence(41);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const today = dayInMY(todayInMY(now));
  const firstMonday = today.subtract((today.day() + 6) % 7, 'day').subtract(56, 'day');
  const consent = async (at: Date) =>
    (await db.insert(consents).values({ noticeVersion: currentNoticeVersion(), language: 'en', channel: 'web', givenAt: at }).returning({ id: consents.id }))[0].id;
  let payments = 0;
  for (let d = 0; d < 56; d++) {
    const day = firstMonday.add(d, 'day');
    if (day.day() === 0 || day.day() === 6) continue;
    for (const time of DEMO_TIMES) {
      const [h, m] = time.split(':').map(Number);
      const start = day.add(h * 60 + m, 'minute');
      for (const seat of [1, 2]) {
        const [slot] = await db
          .insert(slots)
          .values({ startAt: start.toDate(), endAt: start.add(SLOT_MINUTES, 'minute').toDate(), seat, createdAt: start.subtract(30, 'day').toDate() })
          .onConflictDoNothing()
          .returning({ id: slots.id });
        if (!slot || random() < 0.25) continue;
        const school = pick(brand.schools);
        const visitor = pick(DEMO_VISITORS);
        const created = start.subtract(1 + Math.floor(random() * 20), 'day').add(Math.floor(random() * 600), 'minute');
        // A payment or two that did not go through before the one that did.
        const outcome = random();
        if (outcome < 0.18) {
          const status = outcome < 0.08 ? 'failed' : 'cancelled';
          const failure = outcome < 0.04 ? 'Payment session expired' : status === 'failed' ? 'Payment failed. Please try again.' : 'Payment cancelled';
          await insertSeasonPayment(db, { slotId: slot.id, school: school.name, feeSen: school.feeSen, visitor, created: created.subtract(20, 'minute').toDate(), status, failure, method: status === 'failed' && outcome >= 0.04 ? pick(METHODS) : null, consentId: await consent(created.toDate()) });
          payments++;
        }
        const reference = newBookingReference();
        const paidAt = created.add(3, 'minute');
        const cancelled = random() < 0.12 ? start.subtract(1 + Math.floor(random() * 48), 'hour') : null;
        const byStaff = cancelled !== null && random() < 0.3;
        const consentId = await consent(created.toDate());
        const id = await insertSeasonPayment(db, {
          slotId: slot.id, school: school.name, feeSen: school.feeSen, visitor, created: created.toDate(), reference, consentId,
          status: cancelled ? 'refunded' : 'completed', method: pick(METHODS), completed: paidAt.toDate(),
          cancelled: cancelled ? { at: cancelled.toDate(), by: byStaff ? 'staff@example.com' : 'parent', refundSen: byStaff ? school.feeSen : Math.round(school.feeSen / 2) } : null,
        });
        payments++;
        await db.execute(sql`INSERT INTO booking_events (payment_id, kind, actor, to_start, amount_sen, created_at) VALUES (${id}, 'booked', 'parent', ${start.toISOString()}, ${school.feeSen}, ${paidAt.toISOString()})`);
        if (cancelled) {
          await db.execute(sql`INSERT INTO booking_events (payment_id, kind, actor, from_start, created_at) VALUES (${id}, 'cancelled', ${byStaff ? 'staff@example.com' : 'parent'}, ${start.toISOString()}, ${cancelled.toISOString()})`);
          continue;
        }
        if (random() < 0.08)
          await db.execute(sql`INSERT INTO booking_events (payment_id, kind, actor, from_start, to_start, created_at) VALUES (${id}, 'rescheduled', 'parent', ${start.add(1, 'day').toISOString()}, ${start.toISOString()}, ${paidAt.add(1, 'day').toISOString()})`);
        await db
          .update(slots)
          .set({ status: 'booked', ...visitor, selectedSchool: school.name, childYear: schoolYears(school.name)[0]?.name ?? null, amountSen: school.feeSen, bookingReference: reference, bookedAt: paidAt.toDate(), consentId })
          .where(sql`id = ${slot.id}`);
      }
    }
  }
  // The waitlist: families who found weeks full, and the offers of freed seats made to them.
  const freed = (await db.execute(sql`SELECT slot_id, cancelled_at FROM payments WHERE booking_status = 'cancelled' ORDER BY cancelled_at`)) as unknown as { rows: { slot_id: number; cancelled_at: string }[] };
  for (const [i, row] of freed.rows.entries()) {
    const joined = dayInMY(todayInMY(new Date(row.cancelled_at))).subtract(3, 'day').add(9, 'hour');
    const school = brand.schools[i % brand.schools.length];
    const outcome = (['booked', 'declined', 'expired'] as const)[i % 3];
    const [entry] = (
      (await db.execute(sql`
        INSERT INTO waitlist_entries (school, name, email, phone, locale, from_date, to_date, part_of_day, token_hash, consent_id, state, joined_at, ended_at)
        VALUES (${school.name}, 'Waiting parent', ${`waiting${i}.demo@example.com`}, ${`01${String(20_000_000 + i)}`}, 'en', ${joined.format('YYYY-MM-DD')},
                ${joined.add(14, 'day').format('YYYY-MM-DD')}, 'any', ${newBookingReference() + i}, ${await consent(joined.toDate())},
                ${outcome === 'booked' ? 'booked' : 'expired'}, ${joined.toISOString()}, ${new Date(row.cancelled_at).toISOString()})
        RETURNING id`)) as unknown as { rows: { id: number }[] }
    ).rows;
    const offered = new Date(new Date(row.cancelled_at).getTime() + 60_000);
    await db.execute(sql`
      INSERT INTO waitlist_offers (entry_id, slot_id, token_hash, hold_token, created_at, starts_at, expires_at, outcome, ended_at)
      VALUES (${entry.id}, ${row.slot_id}, ${`offer-${newBookingReference()}-${i}`}, ${`offer-hold-${i}`}, ${offered.toISOString()}, ${offered.toISOString()},
              ${new Date(offered.getTime() + 2 * 3_600_000).toISOString()}, ${outcome}, ${new Date(offered.getTime() + 3_600_000).toISOString()})`);
    if (outcome !== 'booked') continue;
    // The family took the freed seat: paid half an hour after the offer.
    const paidAt = new Date(offered.getTime() + 30 * 60_000);
    const reference = newBookingReference();
    const consentId = await consent(offered);
    await insertSeasonPayment(db, { slotId: row.slot_id, school: school.name, feeSen: school.feeSen, visitor: DEMO_VISITORS[i % DEMO_VISITORS.length], created: offered, consentId, reference, status: 'completed', method: pick(METHODS), completed: paidAt });
    payments++;
    await db
      .update(slots)
      .set({ status: 'booked', ...DEMO_VISITORS[i % DEMO_VISITORS.length], selectedSchool: school.name, amountSen: school.feeSen, bookingReference: reference, bookedAt: paidAt, consentId })
      .where(sql`id = ${row.slot_id}`);
  }
  return payments;
}

type SeasonPayment = {
  slotId: number;
  school: string;
  feeSen: number;
  visitor: (typeof DEMO_VISITORS)[number];
  created: Date;
  consentId: number;
  status: 'completed' | 'refunded' | 'failed' | 'cancelled';
  method: string | null;
  reference?: string;
  completed?: Date;
  failure?: string;
  cancelled?: { at: Date; by: string; refundSen: number } | null;
};

async function insertSeasonPayment(db: DbOrTx, p: SeasonPayment): Promise<string> {
  const id = `pay_season_${randomUUID()}`;
  const paid = p.status === 'completed' || p.status === 'refunded';
  await db.execute(sql`
    INSERT INTO payments (id, reference, slot_id, status, amount_sen, method, visitor_name, visitor_email, visitor_contact_no, selected_school,
                          hold_token, gateway, session_expires_at, failure_reason, completed_at, paid_amount_sen, booking_status, cancelled_at,
                          cancelled_by, refund_amount_sen, consent_id, created_at, updated_at)
    VALUES (${id}, ${p.reference ?? newBookingReference()}, ${p.slotId}, ${p.status}, ${p.feeSen}, ${p.method}, ${p.visitor.visitorName}, ${p.visitor.visitorEmail},
            ${p.visitor.visitorContactNo}, ${p.school}, ${randomUUID()}, 'sandbox', ${new Date(p.created.getTime() + 15 * 60_000).toISOString()},
            ${p.failure ?? null}, ${p.completed?.toISOString() ?? null}, ${paid ? p.feeSen : null}, ${p.cancelled ? 'cancelled' : paid ? 'booked' : null},
            ${p.cancelled?.at.toISOString() ?? null}, ${p.cancelled?.by ?? null}, ${p.cancelled?.refundSen ?? null}, ${p.consentId},
            ${p.created.toISOString()}, ${p.created.toISOString()})`);
  return id;
}
