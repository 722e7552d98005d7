jest.setTimeout(120_000);
import { sql } from 'drizzle-orm';
import { bookingChanges, brand, dayInMY, manageBookingPath, WHAT_TO_BRING, type BookingChangesPolicy } from 'shared-api/contract';
import { escapeHtml } from '../../src/mail/format';
import { paymentForToken } from '../../src/manage/service';
import { reminderTime, runReminders, ReminderJob } from '../../src/manage/reminders';
import { openDatabase, type DatabaseHandle } from '../../src/base/db/connection';
import { migrate } from '../../src/base/db/migrate';
import { createThrowawayPostgres, freshPglite, queryRows } from '../helpers';
import { atMY, bookedVisit, cancelBooking, dayAhead, MAIL_FROM, minutes, moveBooking, remindersFor, SITE } from './support';

// Every clock here is injected; the visits are days ahead of the real clock so a manage link still opens them.
const options = (now: Date, policy?: BookingChangesPolicy) => ({ now, publicSiteUrl: SITE, mailFrom: MAIL_FROM, policy });

describe('reminder time', () => {
  it('is 09:00 GMT+8 on the day before the visit, whatever the visit time (including just after midnight GMT+8)', () => {
    const day = '2031-03-12';
    expect(reminderTime(atMY(day, '10:30'), bookingChanges).toISOString()).toBe('2031-03-11T01:00:00.000Z');
    expect(reminderTime(atMY(day, '00:15'), bookingChanges).toISOString()).toBe('2031-03-11T01:00:00.000Z');
    expect(reminderTime(atMY(day, '23:45'), bookingChanges).toISOString()).toBe('2031-03-11T01:00:00.000Z');
    const twoDaysAt18: BookingChangesPolicy = { ...bookingChanges, reminder: { daysBefore: 2, time: '18:00' } };
    expect(reminderTime(atMY(day, '10:30'), twoDaysAt18).toISOString()).toBe('2031-03-10T10:00:00.000Z');
  });
});

describe.each(['pglite', 'postgres'] as const)('day-before reminders on %s', (driver) => {
  let database: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;
  let url = '';
  const db = () => database.db;

  beforeAll(async () => {
    if (driver === 'pglite') {
      database = await freshPglite();
    } else {
      const throwaway = await createThrowawayPostgres('reminders');
      drop = throwaway.drop;
      url = throwaway.url;
      database = await openDatabase({ driver: 'postgres', url, poolSize: 10 });
      await migrate(database);
    }
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  // Each test has visit days of its own (the slots' start times are unique).
  let nextDay = 10;
  const visitDay = () => dayAhead((nextDay += 5));

  it('none before 09:00 GMT+8 the day before; one at 09:00; none again later; none once the visit has started', async () => {
    const day = visitDay();
    const start = atMY(day, '10:30');
    const nine = atMY(day, '09:00', -1);
    const { payment } = await bookedVisit(db(), start, { bookedAt: atMY(day, '12:00', -5) });

    expect(await runReminders(db(), options(minutes(nine, -1)))).toBe(0);
    expect(await remindersFor(db(), payment.id)).toHaveLength(0);

    expect(await runReminders(db(), options(nine))).toBe(1);
    expect(await remindersFor(db(), payment.id)).toHaveLength(1);
    expect(await runReminders(db(), options(minutes(nine, 5)))).toBe(0);
    expect(await runReminders(db(), options(minutes(start, -1)))).toBe(0);
    expect(await remindersFor(db(), payment.id)).toHaveLength(1);

    // A visit whose reminder was never sent (the service was down all day) gets none once it has started.
    const late = await bookedVisit(db(), atMY(day, '14:00'), { bookedAt: atMY(day, '12:00', -5) });
    expect(await runReminders(db(), options(atMY(day, '14:00')))).toBe(0);
    expect(await runReminders(db(), options(atMY(day, '14:01')))).toBe(0);
    expect(await remindersFor(db(), late.payment.id)).toHaveLength(0);
  });

  it('a service that was down at 09:00 still reminds later the same day, before the visit', async () => {
    const day = visitDay();
    const { payment } = await bookedVisit(db(), atMY(day, '08:00'), { bookedAt: atMY(day, '12:00', -5) });
    expect(await runReminders(db(), options(atMY(day, '21:00', -1)))).toBe(1);
    expect(await remindersFor(db(), payment.id)).toHaveLength(1);
  });

  it('a booking made after the reminder time gets no reminder (its confirmation has just said it all)', async () => {
    const day = visitDay();
    const { payment } = await bookedVisit(db(), atMY(day, '15:00'), { bookedAt: atMY(day, '11:00', -1) });
    expect(await runReminders(db(), options(atMY(day, '11:05', -1)))).toBe(0);
    expect(await runReminders(db(), options(atMY(day, '09:00')))).toBe(0);
    expect(await remindersFor(db(), payment.id)).toHaveLength(0);
  });

  it('the configured time and days before are followed', async () => {
    const day = visitDay();
    const policy: BookingChangesPolicy = { ...bookingChanges, reminder: { daysBefore: 2, time: '18:00' } };
    const { payment } = await bookedVisit(db(), atMY(day, '10:00'), { bookedAt: atMY(day, '12:00', -6) });
    expect(await runReminders(db(), options(atMY(day, '17:59', -2), policy))).toBe(0);
    expect(await runReminders(db(), options(atMY(day, '18:00', -2), policy))).toBe(1);
    const [mail] = await remindersFor(db(), payment.id);
    expect(mail.subject).toMatch(/^Reminder: assessment visit in 2 days, /);
  });

  it('the mail: to the visitor, with the visit, what to bring, the form and a manage link that opens the booking', async () => {
    const day = visitDay();
    const start = atMY(day, '10:30');
    const { payment } = await bookedVisit(db(), start, { bookedAt: atMY(day, '12:00', -5), visitorName: 'Tan <b>Wei</b>', email: 'tan.wei@example.com' });
    expect(await runReminders(db(), options(atMY(day, '09:00', -1)))).toBe(1);

    const [mail] = await remindersFor(db(), payment.id);
    expect(mail.recipient).toBe('tan.wei@example.com');
    expect(mail.status).toBe('pending');
    expect(mail.ics).toBeNull();
    expect(mail.messageId).toBe(`<${payment.reference}.reminder-${start.getTime() / 1000}@seriilmu.test>`);
    // "Wednesday, 12 March 2031": the visit's day in GMT+8, as the confirmation mail writes it.
    const dateText = dayInMY(day).format('dddd, D MMMM YYYY');
    expect(mail.subject).toBe(`Reminder: assessment visit tomorrow, ${dateText} at 10:30 AM (GMT+8)`);
    for (const [body, as] of [
      [mail.textBody, (t: string) => t],
      [mail.htmlBody, escapeHtml],
    ] as const) {
      expect(body).toContain(as(payment.selectedSchool));
      expect(body).toContain(dateText);
      expect(body).toContain('10:30 AM – 11:00 AM (GMT+8)');
      expect(body).toContain(payment.reference);
      expect(body).toContain(as(brand.registrationFormUrl));
      expect(body).toContain(`until ${bookingChanges.cutoffHours} hours before the visit`);
      for (const item of WHAT_TO_BRING) expect(body).toContain(as(item));
    }
    expect(mail.textBody).toContain('Dear Tan <b>Wei</b>,');
    expect(mail.htmlBody).toContain('Dear Tan &lt;b&gt;Wei&lt;/b&gt;,');
    expect(mail.htmlBody).not.toContain('<b>Wei</b>');

    const link = new RegExp(`${SITE}${manageBookingPath('([A-Za-z0-9_-]{43})')}`).exec(mail.textBody);
    expect(link).not.toBeNull();
    expect(mail.htmlBody).toContain(`href="${link![0]}"`);
    const opened = await paymentForToken(db(), link![1]);
    expect(opened?.id).toBe(payment.id);
  });

  it('called twice, and twice at once, it queues one reminder', async () => {
    const day = visitDay();
    const visits = await Promise.all(
      ['09:00', '09:30', '10:00', '10:30', '11:00'].map((t) => bookedVisit(db(), atMY(day, t), { bookedAt: atMY(day, '12:00', -5) })),
    );
    const now = atMY(day, '09:00', -1);
    const first = await Promise.all([runReminders(db(), options(now)), runReminders(db(), options(now))]);
    expect(first[0] + first[1]).toBe(5);
    expect(await runReminders(db(), options(minutes(now, 1)))).toBe(0);
    for (const v of visits) expect(await remindersFor(db(), v.payment.id)).toHaveLength(1);
  });

  if (driver === 'postgres') {
    it('two database pools (as two replicas) running at once queue each of 40 reminders exactly once', async () => {
      const other = await openDatabase({ driver: 'postgres', url, poolSize: 10 });
      try {
        const day = visitDay();
        const visits = [];
        for (let i = 0; i < 40; i++) visits.push(await bookedVisit(db(), minutes(atMY(day, '08:00'), i * 15), { bookedAt: atMY(day, '12:00', -5) }));
        const now = atMY(day, '09:00', -1);
        const counts = await Promise.all([
          runReminders(db(), options(now)),
          runReminders(other.db, options(now)),
          runReminders(db(), options(now)),
          runReminders(other.db, options(now)),
        ]);
        expect(counts.reduce((a, b) => a + b, 0)).toBe(40);
        for (const v of visits) expect(await remindersFor(db(), v.payment.id)).toHaveLength(1);
        const claims = await queryRows<{ n: number }>(
          database,
          sql`SELECT count(*)::int AS n FROM booking_reminders WHERE payment_id IN (${sql.join(visits.map((v) => sql`${v.payment.id}`), sql`, `)})`,
        );
        expect(claims[0].n).toBe(40);
      } finally {
        await other.close();
      }
    });

    it('a cancel committed while the reminder waits for the booking wins: no reminder', async () => {
      const day = visitDay();
      const { payment } = await bookedVisit(db(), atMY(day, '10:30'), { bookedAt: atMY(day, '12:00', -5) });
      let reminded: Promise<number> | undefined;
      await db().transaction(async (tx) => {
        // The cancel holds the payment (as the cancel service does) while the reminder pass starts.
        await tx.execute(sql`SELECT id FROM payments WHERE id = ${payment.id} FOR UPDATE`);
        reminded = runReminders(db(), options(atMY(day, '09:00', -1)));
        for (;;) {
          const [{ n }] = await queryRows<{ n: number }>(
            database,
            sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          if (n > 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await tx.execute(sql`UPDATE payments SET booking_status = 'cancelled', cancelled_at = now(), cancelled_by = 'parent' WHERE id = ${payment.id}`);
        await tx.execute(sql`UPDATE slots SET status = 'available', visitor_name = NULL, booking_reference = NULL WHERE id = ${payment.slotId}`);
      });
      expect(await reminded).toBe(0);
      expect(await remindersFor(db(), payment.id)).toHaveLength(0);
    });
  }

  it('a cancelled booking gets none', async () => {
    const day = visitDay();
    const { payment } = await bookedVisit(db(), atMY(day, '10:30'), { bookedAt: atMY(day, '12:00', -5) });
    await cancelBooking(db(), payment.id);
    expect(await runReminders(db(), options(atMY(day, '09:00', -1)))).toBe(0);
    expect(await runReminders(db(), options(atMY(day, '10:00')))).toBe(0);
    expect(await remindersFor(db(), payment.id)).toHaveLength(0);
  });

  it('a booking moved before its reminder is reminded of the new date only', async () => {
    const day = visitDay();
    const { payment } = await bookedVisit(db(), atMY(day, '10:30'), { bookedAt: atMY(day, '12:00', -5) });
    const newStart = atMY(day, '14:00', 2);
    await moveBooking(db(), payment.id, newStart, atMY(day, '20:00', -2));
    expect(await runReminders(db(), options(atMY(day, '09:00', -1)))).toBe(0);
    expect(await runReminders(db(), options(atMY(day, '10:00')))).toBe(0);
    expect(await runReminders(db(), options(atMY(day, '09:00', 1)))).toBe(1);
    const mails = await remindersFor(db(), payment.id);
    expect(mails).toHaveLength(1);
    expect(mails[0].messageId).toBe(`<${payment.reference}.reminder-${newStart.getTime() / 1000}@seriilmu.test>`);
    expect(mails[0].textBody).toContain('2:00 PM – 2:30 PM (GMT+8)');
  });

  it('a booking moved after its reminder gets a second one, for the new date', async () => {
    const day = visitDay();
    const start = atMY(day, '10:30');
    const { payment } = await bookedVisit(db(), start, { bookedAt: atMY(day, '12:00', -5) });
    expect(await runReminders(db(), options(atMY(day, '09:00', -1)))).toBe(1);
    const newStart = atMY(day, '09:30', 3);
    await moveBooking(db(), payment.id, newStart, atMY(day, '15:00', -1));
    expect(await runReminders(db(), options(atMY(day, '15:01', -1)))).toBe(0);
    expect(await runReminders(db(), options(atMY(day, '09:00', 2)))).toBe(1);
    expect(await runReminders(db(), options(atMY(day, '09:00', 3)))).toBe(0);
    const mails = await remindersFor(db(), payment.id);
    expect(mails.map((m) => m.messageId)).toEqual([
      `<${payment.reference}.reminder-${start.getTime() / 1000}@seriilmu.test>`,
      `<${payment.reference}.reminder-${newStart.getTime() / 1000}@seriilmu.test>`,
    ]);
  });

  it('the periodic job runs a pass at start, wakes the mail worker when it queued mail, and stops', async () => {
    const day = visitDay();
    const { payment } = await bookedVisit(db(), atMY(day, '10:30'), { bookedAt: atMY(day, '12:00', -5) });
    let wakes = 0;
    const job = new ReminderJob({
      db: db(),
      intervalMs: 0,
      publicSiteUrl: SITE,
      mailFrom: MAIL_FROM,
      clock: () => atMY(day, '09:00', -1),
      onQueued: () => wakes++,
    });
    void job.start();
    // The pass under way is the one start() began.
    expect(await job.runOnce()).toBe(1);
    await job.stop();
    expect(await remindersFor(db(), payment.id)).toHaveLength(1);
    expect(wakes).toBe(1);
    expect(await job.runOnce()).toBe(0);
  });
});
