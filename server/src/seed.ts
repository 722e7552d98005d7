import { count } from 'drizzle-orm';
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
