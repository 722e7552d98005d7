import { and, asc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import { bookingChanges, dayInMY, inMY, parseSlotTime, type BookingChangesPolicy } from 'shared-api/contract';
import type { Db } from '../base/db/connection';
import type { JobEngine } from '../base/jobs/engine';
import { slots } from '../slots';
import { renderVisitorReminder } from '../mail';
import { bookingReminders } from '../bookings';
import { mailOutbox } from '../mail';
import { childrenOf, mailChildrenOf, paymentChildren, payments, visitWhatsAppOf } from '../payments';
import { enqueueReminderWhatsApp } from '../whatsapp';
import { manageUrl, mintManageToken } from '../bookings';
import { documentChecklistFor } from '../documents';

type Log = { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

export type ReminderOptions = {
  /** The clock (tests pass a fixed instant). */
  now: Date;
  /** The booking site, for the manage link. */
  publicSiteUrl: string;
  /** The From address: its domain ends the Message-ID, as in the other mails. */
  mailFrom: string;
  policy?: BookingChangesPolicy;
  log?: Log;
};

const DAY_MS = 86_400_000;
const domainOf = (address: string) => /@([^>\s]+)>?\s*$/.exec(address)?.[1] ?? 'booking.local';

/** When a visit starting at `start` is reminded of: `daysBefore` days before its GMT+8 day, at the policy's time (GMT+8). */
export function reminderTime(start: Date, policy: BookingChangesPolicy = bookingChanges): Date {
  const minutes = parseSlotTime(policy.reminder.time) ?? 9 * 60;
  return dayInMY(inMY(start).format('YYYY-MM-DD'))
    .subtract(policy.reminder.daysBefore, 'day')
    .add(minutes, 'minute')
    .toDate();
}

/**
 * Queues the day-before reminder of every booked visit that is due: its reminder time has come and the visit has not
 * started. Each is claimed by inserting its (payment, visit start) row in `booking_reminders` in the transaction that
 * queues the mail, so any number of replicas running this at once send it exactly once; a cancelled booking is never
 * reminded, and a moved one is reminded of its new start (a new key). Resolves with how many reminders were queued.
 */
export async function runReminders(db: Db, options: ReminderOptions): Promise<number> {
  const { now, policy = bookingChanges, log } = options;
  // Reminders go at most daysBefore days (plus the day's hours) ahead: nothing further can be due.
  const horizon = new Date(now.getTime() + (policy.reminder.daysBefore + 2) * DAY_MS);
  const candidates = await db
    .select({ paymentId: payments.id, start: slots.startAt, bookedAt: slots.bookedAt })
    .from(payments)
    .innerJoin(slots, eq(slots.id, payments.slotId))
    .where(
      and(
        eq(payments.bookingStatus, 'booked'),
        eq(slots.status, 'booked'),
        eq(slots.bookingReference, payments.reference),
        isNull(slots.deletedAt),
        gt(slots.startAt, now),
        lte(slots.startAt, horizon),
        sql`NOT EXISTS (SELECT 1 FROM booking_reminders r WHERE r.payment_id = ${payments.id} AND r.visit_start = ${slots.startAt})`,
      ),
    )
    .orderBy(asc(slots.startAt));
  // A child of several staff moved alone to another time (issue 37) is reminded of that time too.
  const childCandidates = await db
    .select({ paymentId: payments.id, start: slots.startAt, bookedAt: slots.bookedAt })
    .from(paymentChildren)
    .innerJoin(payments, eq(payments.id, paymentChildren.paymentId))
    .innerJoin(slots, eq(slots.id, paymentChildren.slotId))
    .where(
      and(
        eq(payments.bookingStatus, 'booked'),
        isNull(paymentChildren.cancelledAt),
        eq(slots.status, 'booked'),
        eq(slots.bookingReference, payments.reference),
        isNull(slots.deletedAt),
        gt(slots.startAt, now),
        lte(slots.startAt, horizon),
        sql`NOT EXISTS (SELECT 1 FROM booking_reminders r WHERE r.payment_id = ${payments.id} AND r.visit_start = ${slots.startAt})`,
      ),
    );
  const seen = new Set(candidates.map((c) => `${c.paymentId}|${c.start.getTime()}`));
  for (const c of childCandidates) {
    const key = `${c.paymentId}|${c.start.getTime()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    candidates.push(c);
  }
  candidates.sort((a, b) => a.start.getTime() - b.start.getTime());
  let queued = 0;
  for (const c of candidates) {
    const remindAt = reminderTime(c.start, policy);
    if (remindAt > now) continue;
    // Booked (or moved here) after the reminder time: its own confirmation, just sent, already says all a reminder would.
    if (c.bookedAt && c.bookedAt > remindAt) continue;
    try {
      if (await remindOne(db, c.paymentId, c.start, options, policy)) queued++;
    } catch (err) {
      log?.error({ paymentId: c.paymentId, err: (err as Error).message }, 'reminder: could not be queued');
    }
  }
  if (queued) log?.info({ queued }, 'reminders queued');
  return queued;
}

/** One booking's reminder in one transaction: claimed, its manage link minted and its mail queued, or nothing. */
async function remindOne(db: Db, paymentId: string, start: Date, options: ReminderOptions, policy: BookingChangesPolicy): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The payment's lock orders this after a cancel or move under way (they lock it too); then both are read afresh.
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (!payment || payment.bookingStatus !== 'booked') return false;
    const seatOf = async (id: number) =>
      (await tx.select().from(slots).where(and(eq(slots.id, id), eq(slots.status, 'booked'), eq(slots.bookingReference, payment.reference), isNull(slots.deletedAt))))[0];
    const bookingSlot = await seatOf(payment.slotId);
    // A booking of several: the children at this time (a child staff moved alone sits at a time of its own, issue 37).
    const children = await childrenOf(tx, paymentId);
    const seats = new Map<number, Awaited<ReturnType<typeof seatOf>>>();
    for (const child of children) if (child.cancelledAt === null) seats.set(child.slotId, child.slotId === payment.slotId ? bookingSlot : await seatOf(child.slotId));
    const atBookingTime = bookingSlot?.startAt.getTime() === start.getTime();
    const here = children.filter((c) => (c.cancelledAt === null ? seats.get(c.slotId)?.startAt.getTime() === start.getTime() : atBookingTime));
    const slot = atBookingTime ? bookingSlot : here.length > 0 ? seats.get(here[0].slotId) : undefined;
    if (!slot || slot.startAt.getTime() !== start.getTime() || slot.startAt <= options.now) return false;
    const claimed = await tx.insert(bookingReminders).values({ paymentId, visitStart: slot.startAt }).onConflictDoNothing().returning();
    if (claimed.length === 0) return false;
    const token = await mintManageToken(tx, paymentId, 'mail');
    // Issue 40: what each child at this time still misses (a child staff moved to another time is reminded at theirs).
    const checklist = (await documentChecklistFor(tx, [payment.reference])).get(payment.reference);
    const positionsHere = new Set(here.map((c) => c.position));
    const documents = checklist?.children.filter((c) => here.length === 0 || positionsHere.has(c.position)).map(({ name, missing }) => ({ name, missing }));
    const mail = renderVisitorReminder({
      reference: payment.reference,
      start: slot.startAt,
      end: slot.endAt,
      // Children at a time of their own: the school of the first of them.
      school: atBookingTime || here.length === 0 ? payment.selectedSchool : here[0].selectedSchool,
      visitorName: payment.visitorName,
      childName: payment.childName,
      childYear: payment.childYear,
      children: mailChildrenOf(here),
      manageUrl: manageUrl(options.publicSiteUrl, token),
      cutoffHours: policy.cutoffHours,
      now: options.now,
      locale: payment.locale,
      documents,
    });
    await tx
      .insert(mailOutbox)
      .values({
        paymentId,
        kind: 'visitor_reminder',
        recipient: payment.visitorEmail,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        ics: null,
        messageId: `<${payment.reference}.reminder-${Math.floor(slot.startAt.getTime() / 1000)}@${domainOf(options.mailFrom)}>`,
        locale: mail.locale ?? null,
      })
      .onConflictDoNothing();
    // On WhatsApp too when the parent opted in (issue 38), with its buttons; never after the visit began.
    await enqueueReminderWhatsApp(tx, {
      ...visitWhatsAppOf(payment, slot.startAt, here, manageUrl(options.publicSiteUrl, token)),
      school: atBookingTime || here.length === 0 ? payment.selectedSchool : here[0].selectedSchool,
      now: options.now,
    });
    return true;
  });
}

export type ReminderJobOptions = Omit<ReminderOptions, 'now'> & {
  db: Db;
  /** Between passes (REMINDER_INTERVAL_MS); 0: one pass at start only. */
  intervalMs: number;
  /** Called after a pass queued mail (queues its jobs and wakes the mail worker). */
  onQueued?: () => void;
  clock?: () => Date;
  /** pg-boss: the `reminders` queue runs the passes on one process or another; without it start() runs one pass here. */
  jobs?: JobEngine;
};

/** Runs `runReminders` at start and every `intervalMs` as the `reminders` queue's job; any number of processes may run it. */
export class ReminderJob {
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(private readonly options: ReminderJobOptions) {
    options.jobs?.handle('reminders', () => this.runOnce());
  }

  /** Schedules the passes (one now, then every intervalMs) and works the queue here. */
  async start(): Promise<void> {
    const { jobs, intervalMs } = this.options;
    if (!jobs) return void this.runOnce();
    await jobs.work(['reminders']);
    await jobs.every('reminders', intervalMs);
  }

  /** One pass (or the one already running in this process); resolves with how many reminders it queued. */
  runOnce(): Promise<number> {
    if (this.running) return this.running;
    if (this.stopped) return Promise.resolve(0);
    const { db, clock = () => new Date(), onQueued, log, jobs: _jobs, ...rest } = this.options;
    this.running = runReminders(db, { ...rest, log, now: clock() })
      .then((queued) => {
        if (queued) onQueued?.();
        return queued;
      })
      .catch((err) => {
        log?.error({ err: (err as Error).message }, 'reminders: pass failed');
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Waits for the pass under way; no pass starts after. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
